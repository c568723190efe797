package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// sizeResult is everything measured on one corpus.
type sizeResult struct {
	Target     int           `json:"target_lines"`
	Lines      int           `json:"lines"`
	PyFiles    int           `json:"python_files"`
	JAXLines   int           `json:"jax_lines"`
	Bytes      int           `json:"bytes"`
	HotLines   int           `json:"hot_file_lines"`
	GenSeconds float64       `json:"generate_seconds"`
	Dir        string        `json:"kept_in,omitempty"`
	Tree       string        `json:"tree,omitempty"`   // -dir: the tree measured (GenSeconds is then its reading time)
	Parse      parseResult   `json:"parse_only"`       // libc's allocator: the reference floor
	ParseArena parseResult   `json:"parse_only_arena"` // as check parses (pyparse's arena)
	Cold       *checkRun     `json:"check_cold"`
	Fill       *checkRun     `json:"check_cache_fill"`
	Warm       *checkRun     `json:"check_warm"`
	Editor     *editorResult `json:"editor,omitempty"`
	// EditorVs is the same tree editor session with the -vs binary, its
	// edits interleaved with Editor's (edits_tree.go).
	EditorVs      *editorResult `json:"editor_vs,omitempty"`
	VsBinary      string        `json:"vs_binary,omitempty"`
	ColdOverParse float64       `json:"cold_over_parse"`
	WarmOverCold  float64       `json:"warm_over_cold"`
	Errors        []string      `json:"errors,omitempty"`
}

type parseResult struct {
	Seconds      float64 `json:"seconds"`
	LinesPerSec  float64 `json:"lines_per_second"`
	Workers      int     `json:"workers"`
	SyntaxErrors int     `json:"syntax_errors"`
}

// runSize generates a corpus of n lines and measures it. A failed step is
// recorded and the steps that do not depend on it still run.
func (b *bench) runSize(ctx context.Context, n int) *sizeResult {
	r := &sizeResult{Target: n}
	fail := func(what string, err error) {
		r.Errors = append(r.Errors, what+": "+err.Error())
		b.logf("%s failed: %v", what, err)
	}
	b.logf("generating %d lines", n)
	start := time.Now()
	c := Generate(Config{Lines: n, Seed: b.o.seed})
	r.GenSeconds = time.Since(start).Seconds()
	py := c.Python()
	r.Lines, r.PyFiles, r.JAXLines, r.Bytes, r.HotLines = c.Lines, len(py), c.JAXLines, c.Bytes, c.Hot.Lines
	dir, err := b.corpusDir(n, c)
	if err != nil {
		fail("writing the corpus", err)
		return r
	}
	if b.o.keep != "" {
		r.Dir = dir
	} else {
		defer os.RemoveAll(dir)
	}
	b.parse(ctx, r, dir, len(py))
	b.checks(ctx, r, dir, fail)
	if b.o.edits > 0 && ctx.Err() == nil {
		b.editor(ctx, r, dir, c, fail)
	}
	return r
}

// corpusDir writes the corpus where -keep says, or under the temp dir,
// and returns its absolute path with symlinks resolved (the server
// reports resolved paths).
func (b *bench) corpusDir(n int, c *Corpus) (string, error) {
	dir := filepath.Join(b.tmp, fmt.Sprintf("corpus-%d", n))
	if b.o.keep != "" {
		dir = b.o.keep
		if len(b.o.sizes) > 1 {
			dir = filepath.Join(dir, fmt.Sprint(n))
		}
	}
	if err := c.Write(dir); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// parseRuns is how many times the floor is measured; the fastest run is
// kept, since a floor is a lower bound and noise only adds.
const parseRuns = 3

// parse measures the parse-only floors in a process of its own
// (parseChild), so that the memory their trees take, and libc keeps
// afterwards, never counts in the peak RSS of the checks this process
// starts. The floor is the parse with libc's allocator for every node,
// the reference the targets are stated against; the parse as check does
// it (pyparse's per-parse arena) is measured too.
func (b *bench) parse(ctx context.Context, r *sizeResult, dir string, files int) {
	b.logf("parse-only floors (best of %d each)", parseRuns)
	exe, err := os.Executable()
	if err != nil {
		r.Errors = append(r.Errors, "parse: "+err.Error())
		return
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), parseChildEnv+"="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var f parseFloors
	if err == nil {
		err = json.Unmarshal(out, &f)
	}
	if err == nil && f.Err != "" {
		err = errors.New(f.Err)
	}
	if err == nil && f.Files != files {
		err = fmt.Errorf("the parse measured %d files, the corpus has %d", f.Files, files)
	}
	if err != nil {
		r.Errors = append(r.Errors, fmt.Sprintf("parse: %v; stderr: %s", err, tail(stderr.Bytes(), 800)))
		return
	}
	for _, p := range []*parseResult{&f.Floor, &f.Arena} {
		p.LinesPerSec = float64(r.Lines) / p.Seconds
		p.Workers = workers()
	}
	r.Parse, r.ParseArena = f.Floor, f.Arena
}

// lowerPeakRSS returns unused memory to the system and resets this
// process's peak RSS. A child's ru_maxrss starts from the peak of the
// process it was forked from (exec records the old address space's high
// water mark), so without this a short check reports the generator's
// peak as its own.
func lowerPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // Linux; best effort
}

// checks runs check cold (--no-cache), then twice with the cache: the
// first fills it, the second is the warm run. Caches live in the temp dir.
func (b *bench) checks(ctx context.Context, r *sizeResult, dir string, fail func(string, error)) {
	lowerPeakRSS()
	cache := filepath.Join(b.tmp, fmt.Sprintf("cache-%d", r.Target))
	var err error
	for _, step := range []struct {
		name  string
		dst   **checkRun
		extra []string
	}{{"check --no-cache (cold)", &r.Cold, []string{"--no-cache"}}, {"check (cache fill)", &r.Fill, nil}, {"check (warm)", &r.Warm, nil}} {
		if ctx.Err() != nil {
			return
		}
		b.logf("%s", step.name)
		if *step.dst, err = b.bestCheck(ctx, r.Lines, dir, cache, step.name != "check (cache fill)", step.extra); err != nil {
			fail(step.name, err)
		}
	}
	if r.Cold != nil && r.Parse.Seconds > 0 {
		r.ColdOverParse = r.Cold.Seconds / r.Parse.Seconds
	}
	if r.Cold != nil && r.Warm != nil {
		r.WarmOverCold = r.Warm.Seconds / r.Cold.Seconds
	}
}

// bestCheck runs a check -runs times (once if !repeat) and keeps the
// fastest run.
func (b *bench) bestCheck(ctx context.Context, lines int, dir, cache string, repeat bool, extra []string) (*checkRun, error) {
	var best *checkRun
	for i := 0; i < b.o.runs && (i == 0 || repeat); i++ {
		c, err := runCheck(ctx, b.bin, dir, cache, lines, b.o.timeout, extra...)
		if err != nil {
			return nil, err
		}
		if best == nil || c.Seconds < best.Seconds {
			best = c
		}
	}
	return best, nil
}

// editor runs the language-server session. Each edit may take up to ten
// cold checks (at least 30 s) before it counts as a timeout.
func (b *bench) editor(ctx context.Context, r *sizeResult, dir string, c *Corpus, fail func(string, error)) {
	b.logf("editor session (%d edits, %d hovers)", b.o.edits, b.o.edits)
	perEdit := 30 * time.Second
	if r.Cold != nil {
		perEdit = max(perEdit, time.Duration(10*r.Cold.Seconds*float64(time.Second)))
	}
	env := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(b.tmp, fmt.Sprintf("cache-%d", r.Target), "xdg"))
	res, err := runEditor(ctx, b.bin, dir, c, env, b.o, perEdit)
	r.Editor = res
	if err != nil {
		fail("editor", err)
	}
}

func workers() int { return runtime.GOMAXPROCS(0) }

// commas formats n with a thousands separator.
func commas(n int) string {
	s := fmt.Sprint(n)
	var out []string
	for len(s) > 3 {
		out = append([]string{s[len(s)-3:]}, out...)
		s = s[:len(s)-3]
	}
	return strings.Join(append([]string{s}, out...), ",")
}
