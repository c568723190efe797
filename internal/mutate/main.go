// Command mutate is the mutation harness of issue 18: it measures how many
// failures pallas-ls reaches on real code, the way users meet them.
//
//	go run ./internal/mutate -repo /work/repos/TPU-Collectives -bin /tmp/pallas-ls -out /tmp/m/tc
//	scripts/mutate [same flags]
//
// It copies a repository's Python files (and the files that settle its
// settings) into a scratch directory under the system temp dir, one copy
// per job; applies one change at a time that should make JAX fail (ops.go);
// checks each mutant in its whole repository with the given pallas-ls
// binary (each job with its own cache directory, so only the mutated file
// is analysed again) and compares the findings with those of the
// unmutated copy. The oracle (scripts/oracle: real JAX, TPU lowering
// forced on this CPU host) decides whether a mutant really fails, where
// its module can run; elsewhere validity is judged statically (valid.go).
// The source tree is only read.
//
// Output in -out: results.jsonl (one object per mutant) and report.md
// (the table by operator, the survivors, the wrong first errors).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pallas-ls/pallas-ls/oracle"
)

type config struct {
	repo, name, bin, out string
	under                []string
	ops                  map[string]bool
	jobs                 int
	oracle, oracleJAX    string
	oracleTimeout        int
	oracleCache          string
	noOracle, keep, list bool
	max                  int
	scratch              string
	jaxVersion           string
	ids                  string
}

// Finding is the part of a pallas-ls JSON diagnostic the harness reads.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
	JAXError *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"jax_error"`
}

func (f Finding) key() string {
	return fmt.Sprintf("%s|%s|%s|%d|%d|%s", f.Code, f.Severity, f.File, f.Line, f.Column, f.Message)
}

// predicts: a finding that says JAX will fail (the oracle comparison's
// rule, without PAL301: no operator touches an API name).
func (f Finding) predicts() bool {
	return (f.Severity == "error" || f.Severity == "warning") && (strings.HasPrefix(f.Code, "PAL1") || strings.HasPrefix(f.Code, "PAL2"))
}

func (f Finding) hint() bool {
	return f.Severity == "info" && (strings.HasPrefix(f.Code, "PAL1") || strings.HasPrefix(f.Code, "PAL2"))
}

// Result is one mutant's outcome.
type Result struct {
	Mutant
	Outcome  string       `json:"outcome"`  // "killed", "info-only", "survived", "check-failed"
	Validity string       `json:"validity"` // "oracle", "static", "unjudged"
	Valid    bool         `json:"valid"`
	Why      string       `json:"why"`
	Oracle   *OracleError `json:"oracle,omitempty"`
	// FirstError: for killed oracle-valid mutants, "right" when a new
	// predicting finding's jax_error matches what JAX raised, else "wrong".
	FirstError string    `json:"first_error,omitempty"`
	New        []Finding `json:"new,omitempty"`
	CheckErr   string    `json:"check_error,omitempty"`
	entry      entry
	src        []byte
}

func main() {
	cfg := &config{}
	var under, ops string
	flag.StringVar(&cfg.repo, "repo", "", "repository checkout to mutate (only read)")
	flag.StringVar(&cfg.name, "name", "", "name of the repository in the report (default: the directory's name)")
	flag.StringVar(&cfg.bin, "bin", "", "pallas-ls binary to measure")
	flag.StringVar(&cfg.out, "out", "", "directory for results.jsonl and report.md")
	flag.StringVar(&under, "under", "", "comma-separated paths inside the repository whose files are mutated (default: all)")
	flag.StringVar(&ops, "ops", strings.Join(Operators, ","), "comma-separated operators")
	flag.IntVar(&cfg.jobs, "jobs", 2, "checks (and oracle processes) at a time")
	flag.StringVar(&cfg.oracle, "oracle", "", "scripts/oracle of a pallas-ls checkout (default: beside this tool's sources)")
	flag.StringVar(&cfg.oracleJAX, "oracle-jax", "0.11.2", "JAX version the oracle runs mutants under")
	flag.IntVar(&cfg.oracleTimeout, "oracle-timeout", 120, "seconds per oracle entry")
	flag.BoolVar(&cfg.noOracle, "no-oracle", false, "judge every mutant statically")
	flag.StringVar(&cfg.oracleCache, "oracle-cache", defaultOracleCache(), "file of the oracle's verdicts, reused by later runs (\"\": none)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the scratch directory")
	flag.BoolVar(&cfg.list, "list", false, "print the mutants (id and change) and stop")
	flag.IntVar(&cfg.max, "max", 0, "at most this many mutants, spread evenly over the list (0: all)")
	flag.StringVar(&cfg.ids, "ids", "", "a results.jsonl: run only its mutants (a second binary on exactly the first one's set)")
	flag.StringVar(&cfg.jaxVersion, "jax-version", "", "passed to pallas-ls check --jax-version")
	merge := flag.String("merge", "", "comma-separated results.jsonl files: print (and with -out write) their combined report, run nothing")
	validity := flag.String("validity", "", "with -merge: comma-separated results.jsonl files whose validity verdicts (oracle or static) replace the merged ones, mutant by mutant")
	sample := flag.String("sample", "", "with -merge: comma-separated results.jsonl files; only their mutants are counted (compare two runs on one sample)")
	rejudge := flag.String("rejudge", "", "a results.jsonl of -repo: judge its statically judged mutants again with this harness's rules, write -out; run nothing else")
	flag.Parse()
	if *rejudge != "" {
		if err := rejudgeRun(cfg, *rejudge); err != nil {
			fmt.Fprintln(os.Stderr, "mutate:", err)
			os.Exit(1)
		}
		return
	}
	if *merge != "" {
		read := func(list string) map[string][]*Result {
			all := map[string][]*Result{}
			for _, p := range strings.Split(list, ",") {
				rs, err := readResults(p)
				if err != nil {
					fmt.Fprintln(os.Stderr, "mutate:", err)
					os.Exit(1)
				}
				for k, v := range rs {
					all[k] = append(all[k], v...)
				}
			}
			return all
		}
		all := read(*merge)
		if *sample != "" {
			keep := map[string]bool{}
			for repo, rs := range read(*sample) {
				for _, r := range rs {
					keep[repo+"|"+r.ID] = true
				}
			}
			for repo, rs := range all {
				var kept []*Result
				for _, r := range rs {
					if keep[repo+"|"+r.ID] {
						kept = append(kept, r)
					}
				}
				all[repo] = kept
			}
		}
		if *validity != "" {
			by := map[string]*Result{}
			for repo, rs := range read(*validity) {
				for _, r := range rs {
					by[repo+"|"+r.ID] = r
				}
			}
			for repo, rs := range all {
				for _, r := range rs {
					if v := by[repo+"|"+r.ID]; v != nil {
						r.Validity, r.Valid, r.Why, r.Oracle = v.Validity, v.Valid, v.Why, v.Oracle
						r.FirstError = firstError(r)
					}
				}
			}
		}
		rep := Report(all)
		fmt.Print(rep)
		if cfg.out != "" {
			if err := os.WriteFile(filepath.Join(cfg.out, "report.md"), []byte(rep), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "mutate:", err)
				os.Exit(1)
			}
		}
		return
	}
	if cfg.repo == "" || cfg.bin == "" || cfg.out == "" {
		fmt.Fprintln(os.Stderr, "usage: mutate -repo DIR -bin PALLAS_LS -out DIR [-under a,b] [-ops ...] [-jobs N] [-no-oracle]")
		os.Exit(2)
	}
	if cfg.name == "" {
		cfg.name = filepath.Base(filepath.Clean(cfg.repo))
	}
	if under != "" {
		cfg.under = strings.Split(under, ",")
	}
	cfg.ops = map[string]bool{}
	for _, o := range strings.Split(ops, ",") {
		cfg.ops[strings.TrimSpace(o)] = true
	}
	if cfg.oracle == "" {
		if wd, err := os.Getwd(); err == nil {
			cfg.oracle = filepath.Join(wd, "scripts", "oracle")
		}
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
	if rep, err := os.ReadFile(filepath.Join(cfg.out, "report.md")); err == nil && !cfg.list {
		os.Stdout.Write(rep)
	}
}

func defaultOracleCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "pallas-ls", "mutate", "oracle.jsonl")
}

func run(cfg *config) error {
	t0 := time.Now()
	var err error
	cfg.bin, err = filepath.Abs(cfg.bin)
	if err != nil {
		return err
	}
	cfg.scratch, err = os.MkdirTemp("", "pallas-ls-mutate-")
	if err != nil {
		return err
	}
	if !cfg.keep {
		defer os.RemoveAll(cfg.scratch)
	}
	rels, mds, err := pyFiles(cfg.repo)
	if err != nil {
		return err
	}
	// Notebooks (MyST Markdown) under the mutated paths become Python
	// files of the scratch copy, line for line.
	virtual := map[string][]byte{}
	for _, rel := range mds {
		if len(cfg.under) == 0 || !under(rel, cfg.under) {
			continue
		}
		md, err := os.ReadFile(filepath.Join(cfg.repo, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		if py, ok := notebookPython(md); ok {
			virtual[notebookName(rel)] = py
			rels = append(rels, notebookName(rel))
		}
	}
	sort.Strings(rels)
	srcs := map[string][]byte{}
	parsed := map[string]*file{}
	load := func(rel string) *file {
		if f, ok := parsed[rel]; ok {
			return f
		}
		src, err := os.ReadFile(filepath.Join(cfg.repo, filepath.FromSlash(rel)))
		if v, ok := virtual[rel]; ok {
			src, err = v, nil
		}
		if err != nil || len(src) > 4<<20 {
			parsed[rel] = nil
			return nil
		}
		f, err := parseFile(rel, src)
		if err != nil {
			f = nil
		}
		parsed[rel], srcs[rel] = f, src
		return f
	}
	var rs []*Result
	for _, rel := range rels {
		if !under(rel, cfg.under) {
			continue
		}
		f := load(rel)
		if f == nil {
			continue
		}
		ms, err := Mutants(rel, f.src)
		if err != nil {
			continue
		}
		for _, m := range ms {
			if cfg.ops[m.Op] {
				rs = append(rs, &Result{Mutant: m, src: m.Src})
			}
		}
	}
	if cfg.ids != "" {
		prev, err := readResults(cfg.ids)
		if err != nil {
			return err
		}
		want := map[string]bool{}
		for _, list := range prev {
			for _, r := range list {
				want[r.ID] = true
			}
		}
		var keep []*Result
		for _, r := range rs {
			if want[r.ID] {
				keep = append(keep, r)
			}
		}
		rs = keep
	}
	if cfg.max > 0 && len(rs) > cfg.max {
		var keep []*Result
		for i := 0; i < cfg.max; i++ {
			keep = append(keep, rs[i*len(rs)/cfg.max])
		}
		rs = keep
	}
	fmt.Fprintf(os.Stderr, "mutate: %s: %d mutants from %d files\n", cfg.name, len(rs), len(rels))
	if cfg.list {
		for _, r := range rs {
			fmt.Printf("%s\t%s\t%s\n", r.ID, r.Site, r.Desc)
		}
		return nil
	}

	// One scratch copy and cache per job; the unmutated findings first.
	jobs := max(1, cfg.jobs)
	roots := make([]string, jobs)
	var base map[string]bool
	for i := range roots {
		roots[i] = filepath.Join(cfg.scratch, fmt.Sprintf("w%d", i))
		if err := copyTree(cfg.repo, roots[i]); err != nil {
			return err
		}
		for rel, src := range virtual {
			p := filepath.Join(roots[i], filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, src, 0o644); err != nil {
				return err
			}
		}
		fs, err := check(cfg, roots[i], i)
		if err != nil {
			return fmt.Errorf("unmutated check: %v", err)
		}
		if i == 0 {
			base = map[string]bool{}
			for _, f := range fs {
				base[f.key()] = true
			}
		}
	}
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				mu.Lock()
				if next >= len(rs) {
					mu.Unlock()
					return
				}
				r := rs[next]
				next++
				if next%50 == 0 {
					fmt.Fprintf(os.Stderr, "mutate: %s: %d/%d checked (%s)\n", cfg.name, next, len(rs), time.Since(t0).Round(time.Second))
				}
				mu.Unlock()
				checkMutant(cfg, roots[w], w, r, srcs[r.File], base)
			}
		}(w)
	}
	wg.Wait()
	fmt.Fprintf(os.Stderr, "mutate: %s: checked in %s\n", cfg.name, time.Since(t0).Round(time.Second))

	// Validity: the oracle where an entry runs the change, else static.
	ws := newWorkspace(rels, load)
	for _, r := range rs {
		f := parsed[r.File]
		if cfg.noOracle {
			r.entry = entry{Why: "-no-oracle"}
		} else {
			r.entry = entryFor(f, r.Mutant)
		}
	}
	if !cfg.noOracle {
		if err := oracleRun(cfg, roots[0], rs, srcs); err != nil {
			return err
		}
	}
	for _, r := range rs {
		if r.Validity != "oracle" {
			why := r.Why
			if why == "" {
				why = r.entry.Why
			}
			ws.judge(parsed[r.File], r)
			r.Why = why + "; " + r.Why
		}
		r.FirstError = firstError(r)
	}
	fmt.Fprintf(os.Stderr, "mutate: %s: done in %s\n", cfg.name, time.Since(t0).Round(time.Second))
	return writeOut(cfg, rs)
}

// rejudgeRun re-applies the static rules to a finished run's mutants (the
// rules changed; the checks and oracle verdicts stay).
func rejudgeRun(cfg *config, path string) error {
	byRepo, err := readResults(path)
	if err != nil {
		return err
	}
	rels, _, err := pyFiles(cfg.repo)
	if err != nil {
		return err
	}
	parsed := map[string]*file{}
	load := func(rel string) *file {
		if f, ok := parsed[rel]; ok {
			return f
		}
		src, err := os.ReadFile(filepath.Join(cfg.repo, filepath.FromSlash(rel)))
		var f *file
		if err == nil {
			f, _ = parseFile(rel, src)
		}
		parsed[rel] = f
		return f
	}
	ws := newWorkspace(rels, load)
	fresh := map[string]Mutant{}
	for repo, rs := range byRepo {
		cfg.name = repo
		for _, r := range rs {
			if r.Validity == "oracle" {
				continue
			}
			f := load(r.File)
			if f == nil {
				continue
			}
			if _, ok := fresh[r.ID]; !ok {
				ms, _ := Mutants(r.File, f.src)
				for _, m := range ms {
					fresh[m.ID] = m
				}
			}
			if m, ok := fresh[r.ID]; ok {
				r.Sharded, r.Body, r.Site = m.Sharded, m.Body, m.Site
			}
			why := r.Why
			if i := strings.Index(why, "; "); i >= 0 {
				why = why[:i]
			}
			ws.judge(f, r)
			r.Why = why + "; " + r.Why
		}
		if err := writeOut(cfg, rs); err != nil {
			return err
		}
	}
	return nil
}

// firstError: for a killed oracle-valid mutant, "right" when a new
// predicting finding's jax_error matches what JAX raised, else "wrong".
func firstError(r *Result) string {
	if r.Validity != "oracle" || !r.Valid || r.Outcome != "killed" || r.Oracle == nil {
		return ""
	}
	for _, f := range r.New {
		if f.predicts() && f.JAXError != nil && f.JAXError.Type == r.Oracle.Type && oracle.MessageMatches(f.JAXError.Message, r.Oracle.Message) {
			return "right"
		}
	}
	return "wrong"
}

// check runs the binary on a scratch copy; file paths come back relative
// to the copy's root, so copies compare.
func check(cfg *config, root string, w int) ([]Finding, error) {
	args := []string{"-n", "10", cfg.bin, "check", "--format", "json", "--show-info", "--exit-zero",
		"--cache-dir", filepath.Join(cfg.scratch, fmt.Sprintf("cache%d", w))}
	if cfg.jaxVersion != "" {
		args = append(args, "--jax-version", cfg.jaxVersion)
	}
	cmd := exec.Command("nice", append(args, root)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var doc struct {
		Diagnostics []Finding `json:"diagnostics"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &doc); jerr != nil {
		if err == nil {
			err = jerr
		}
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	for i := range doc.Diagnostics {
		if rel, err := filepath.Rel(root, doc.Diagnostics[i].File); err == nil {
			doc.Diagnostics[i].File = filepath.ToSlash(rel)
		}
	}
	return doc.Diagnostics, nil
}

func checkMutant(cfg *config, root string, w int, r *Result, orig []byte, base map[string]bool) {
	p := filepath.Join(root, filepath.FromSlash(r.File))
	if err := os.WriteFile(p, r.src, 0o644); err != nil {
		r.Outcome, r.CheckErr = "check-failed", err.Error()
		return
	}
	fs, err := check(cfg, root, w)
	if werr := os.WriteFile(p, orig, 0o644); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		r.Outcome, r.CheckErr = "check-failed", err.Error()
		return
	}
	killed, hinted := false, false
	for _, f := range fs {
		if base[f.key()] {
			continue
		}
		r.New = append(r.New, f)
		killed = killed || f.predicts()
		hinted = hinted || f.hint()
	}
	switch {
	case killed:
		r.Outcome = "killed"
	case hinted:
		r.Outcome = "info-only"
	default:
		r.Outcome = "survived"
	}
}

func writeOut(cfg *config, rs []*Result) error {
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	var b bytes.Buffer
	for _, r := range rs {
		js, err := json.Marshal(struct {
			Repo string `json:"repo"`
			*Result
		}{cfg.name, r})
		if err != nil {
			return err
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(cfg.out, "results.jsonl"), b.Bytes(), 0o644); err != nil {
		return err
	}
	rep := Report(map[string][]*Result{cfg.name: rs})
	return os.WriteFile(filepath.Join(cfg.out, "report.md"), []byte(rep), 0o644)
}
