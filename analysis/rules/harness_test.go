package rules_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/internal/cli"
	"github.com/pallas-ls/pallas-ls/internal/config"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

// The fixture harness: every directory testdata/<CODE>/<case>/ is a small
// project. Its .py files carry expectations next to the code:
//
//	ring(x)  # want: PAL101 "unbound axis"
//	# want+1: PAL102 "not manual"
//	# want: info PAL101 "callers must"
//
// Every finding must match an expectation on its line (code, optional
// severity, regexp on the message) and every expectation must be met. A
// `.pallas-ls.toml` in the case sets the JAX version. A `fixed/` directory
// holds golden files: applying every fix (unsafe included) must produce
// them, parse without new syntax errors, and converge (a second pass
// changes nothing). Run with -update to rewrite the goldens. An `_oracle/`
// directory holds drivers the oracle runs (oracle/fixtures.toml) to call
// a library case's functions the way callers outside the workspace do:
// not part of the case, which they would otherwise give callers.

var update = flag.Bool("update", false, "rewrite golden files")

var wantRe = regexp.MustCompile(`#\s*want([+-]\d+)?:\s*(.*)$`)
var expRe = regexp.MustCompile(`(?:(error|warning|info|hint)\s+)?(PAL\d{3})\s+"((?:[^"\\]|\\.)*)"`)

type expectation struct {
	file     string
	line     int // 1-based
	severity string
	code     string
	re       *regexp.Regexp
	met      bool
}

func TestFixtures(t *testing.T) {
	cases, _ := filepath.Glob("testdata/PAL*/*")
	if len(cases) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, dir := range cases {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		t.Run(filepath.ToSlash(strings.TrimPrefix(dir, "testdata/")), func(t *testing.T) { runCase(t, dir) })
	}
}

func loadCase(t *testing.T, dir string) ([]analysis.SourceFile, analysis.Options) {
	t.Helper()
	abs, _ := filepath.Abs(dir)
	var files []analysis.SourceFile
	filepath.WalkDir(abs, func(p string, d os.DirEntry, err error) error {
		if d.IsDir() && (d.Name() == "fixed" || d.Name() == "_oracle") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			src, _ := os.ReadFile(p)
			files = append(files, analysis.SourceFile{Path: p, Src: src})
		}
		return nil
	})
	cfg, err := config.LoadFor(abs)
	if err != nil {
		t.Fatal(err)
	}
	v, err := cfg.DetectJAXVersion(abs, "")
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.Options(v)
	if err != nil {
		t.Fatal(err)
	}
	opts.ShowInfo = true
	opts.Analyzers = rules.All()
	return files, opts
}

func runCase(t *testing.T, dir string) {
	files, opts := loadCase(t, dir)
	res, err := analysis.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	exps := expectations(t, files)
	for _, d := range res.Diagnostics {
		if !matchExpectation(exps, d) {
			t.Errorf("%s:%d:%d: unexpected %s %s %q", rel(d.File), d.Pos.Line, d.Pos.Column, d.Severity, d.Code, d.Message)
		}
	}
	for _, e := range exps {
		if !e.met {
			t.Errorf("%s:%d: expected %s %q, got nothing matching", rel(e.file), e.line, e.code, e.re)
		}
	}
	for _, d := range res.Diagnostics {
		checkFixesValid(t, files, d)
	}
	checkGolden(t, dir, files, res, opts)
	checkFixGoldens(t, dir, files, res, opts)
}

// checkFixGoldens keeps fixes.txtar next to each case that offers fixes:
// one section per diagnostic and fix title, holding the unified diff that
// fix alone makes. Alternatives that --fix never applies (a second fix of
// a diagnostic) are pinned down this way too; each must also parse.
func checkFixGoldens(t *testing.T, dir string, files []analysis.SourceFile, res *analysis.Result, opts analysis.Options) {
	abs, _ := filepath.Abs(dir)
	srcs := map[string][]byte{}
	for _, f := range files {
		srcs[f.Path] = f.Src
	}
	ar := &txtar.Archive{Comment: []byte("One section per fix: the diff it makes on its own (go test -run TestFixtures -update rewrites this).\n")}
	for _, d := range res.Diagnostics {
		for _, fix := range d.Fixes {
			if len(fix.Edits) == 0 {
				continue
			}
			byFile := map[string][]analysis.TextEdit{}
			for _, e := range fix.Edits {
				byFile[e.File] = append(byFile[e.File], e)
			}
			var diff strings.Builder
			for _, name := range sortedFiles(byFile) {
				out, err := analysis.ApplyEdits(srcs[name], byFile[name])
				if err != nil {
					t.Errorf("%s: fix %q does not apply alone: %v", rel(name), fix.Title, err)
					continue
				}
				checkNoNewSyntaxErrors(t, srcs[name], out, name)
				r, _ := filepath.Rel(abs, name)
				diff.WriteString(cli.UnifiedDiff(filepath.ToSlash(r), srcs[name], out))
			}
			checkFixResolves(t, files, byFile, d, fix, res, opts)
			r, _ := filepath.Rel(abs, d.File)
			ar.Files = append(ar.Files, txtar.File{
				Name: fmt.Sprintf("%s %s:%d: %s", d.Code, filepath.ToSlash(r), d.Pos.Line, fix.Title),
				Data: []byte(diff.String()),
			})
		}
	}
	golden := filepath.Join(abs, "fixes.txtar")
	if len(ar.Files) == 0 {
		return
	}
	got := txtar.Format(ar)
	if *update {
		os.WriteFile(golden, got, 0o644)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Errorf("missing %s (run with -update)", rel(golden))
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", rel(golden), got, want)
	}
}

func sortedFiles(m map[string][]analysis.TextEdit) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func rel(p string) string {
	wd, _ := os.Getwd()
	if r, err := filepath.Rel(wd, p); err == nil {
		return r
	}
	return p
}

func expectations(t *testing.T, files []analysis.SourceFile) []*expectation {
	var out []*expectation
	for _, f := range files {
		for i, line := range strings.Split(string(f.Src), "\n") {
			m := wantRe.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			target := i + 1
			if m[1] != "" {
				off, _ := strconv.Atoi(m[1])
				target += off
			}
			all := expRe.FindAllStringSubmatch(m[2], -1)
			if len(all) == 0 {
				t.Fatalf("%s:%d: malformed want comment", rel(f.Path), i+1)
			}
			for _, e := range all {
				re, err := regexp.Compile(strings.ReplaceAll(e[3], `\"`, `"`))
				if err != nil {
					t.Fatalf("%s:%d: %v", rel(f.Path), i+1, err)
				}
				out = append(out, &expectation{file: f.Path, line: target, severity: e[1], code: e[2], re: re})
			}
		}
	}
	return out
}

func matchExpectation(exps []*expectation, d analysis.Diagnostic) bool {
	for _, e := range exps {
		if e.met || e.file != d.File || e.line != d.Pos.Line || e.code != d.Code {
			continue
		}
		if e.severity != "" && e.severity != d.Severity.String() || !e.re.MatchString(d.Message) {
			continue
		}
		e.met = true
		return true
	}
	return false
}

func checkFixesValid(t *testing.T, files []analysis.SourceFile, d analysis.Diagnostic) {
	srcs := map[string][]byte{}
	for _, f := range files {
		srcs[f.Path] = f.Src
	}
	for _, fix := range d.Fixes {
		if err := analysis.ValidateFix(fix, srcs); err != nil {
			t.Errorf("%s: fix %q of %s is invalid: %v", rel(d.File), fix.Title, d.Code, err)
		}
		if err := analysis.ValidateFixTitle(fix.Title); err != nil {
			t.Errorf("%s: fix of %s: %v", rel(d.File), d.Code, err)
		}
	}
}

// applyAll applies every fix (unsafe included) and returns the new sources.
func applyAll(t *testing.T, files []analysis.SourceFile, diags []analysis.Diagnostic) map[string][]byte {
	plan := analysis.PlanFixes(diags, true)
	out := map[string][]byte{}
	for _, f := range files {
		src := f.Src
		if edits := plan.Edits[f.Path]; len(edits) > 0 {
			var err error
			if src, err = analysis.ApplyEdits(src, edits); err != nil {
				t.Fatalf("%s: %v", rel(f.Path), err)
			}
		}
		out[f.Path] = src
	}
	for _, s := range plan.Skipped {
		t.Errorf("fix %q of %s skipped: %s", s.Title, s.Code, s.Reason)
	}
	return out
}

func checkGolden(t *testing.T, dir string, files []analysis.SourceFile, res *analysis.Result, opts analysis.Options) {
	abs, _ := filepath.Abs(dir)
	fixedDir := filepath.Join(abs, "fixed")
	if _, err := os.Stat(fixedDir); err != nil && !*update {
		return
	}
	hasFix := false
	for _, d := range res.Diagnostics {
		hasFix = hasFix || len(d.Fixes) > 0 && d.Fixes[0].Applicability != analysis.DisplayOnly
	}
	if !hasFix {
		return
	}
	fixed := applyAll(t, files, res.Diagnostics)
	var next []analysis.SourceFile
	for _, f := range files {
		name, _ := filepath.Rel(abs, f.Path)
		golden := filepath.Join(fixedDir, name)
		got := fixed[f.Path]
		next = append(next, analysis.SourceFile{Path: f.Path, Src: got})
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, got, 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("missing golden %s (run with -update)", golden)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: fixed output differs from golden:\n--- got\n%s\n--- want\n%s", rel(golden), got, want)
		}
		checkNoNewSyntaxErrors(t, f.Src, got, golden)
	}
	res2, err := analysis.Check(context.Background(), next, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Every fixed finding is gone: per code, the findings left are at most
	// those that had no applicable fix.
	before, after := map[string]int{}, map[string]int{}
	for _, d := range res.Diagnostics {
		if len(d.Fixes) == 0 || d.Fixes[0].Applicability == analysis.DisplayOnly {
			before[d.Code]++
		}
	}
	for _, d := range res2.Diagnostics {
		after[d.Code]++
	}
	for code, n := range after {
		if n > before[code] {
			t.Errorf("after the fixes, %d %s findings remain; only %d had no fix", n, code, before[code])
		}
	}
	for _, d := range res2.Diagnostics {
		for _, fix := range d.Fixes {
			if fix.Applicability != analysis.DisplayOnly && len(fix.Edits) > 0 {
				t.Errorf("fixes do not converge: after one pass, %s still offers %q at %s:%d", d.Code, fix.Title, rel(d.File), d.Pos.Line)
			}
		}
	}
}

func checkNoNewSyntaxErrors(t *testing.T, before, after []byte, name string) {
	count := func(src []byte) int {
		tr, err := pyparse.Parse(src)
		if err != nil {
			return 1 << 30
		}
		return len(tr.SyntaxErrors())
	}
	if b, a := count(before), count(after); a > b {
		t.Errorf("%s: the fix introduced syntax errors (%d before, %d after)", rel(name), b, a)
	}
}

// TestFixturesCoverEveryRule keeps the fixture tree honest: each rule has
// at least one case that must find something and one that must stay silent.
func TestFixturesCoverEveryRule(t *testing.T) {
	for _, a := range rules.All() {
		cases, _ := filepath.Glob(filepath.Join("testdata", a.Code, "*"))
		var find, silent int
		for _, c := range cases {
			files, _ := filepath.Glob(filepath.Join(c, "*.py"))
			has := false
			for _, f := range files {
				b, _ := os.ReadFile(f)
				has = has || bytes.Contains(b, []byte("want: "+a.Code)) || bytes.Contains(b, []byte(a.Code+" \""))
			}
			if has {
				find++
			} else {
				silent++
			}
		}
		if find == 0 || silent == 0 {
			t.Errorf("%s: want fixtures that find (%d) and look-alikes that stay silent (%d)", a.Code, find, silent)
		}
	}
}

// checkFixResolves: after one fix alone, its diagnostic's code is
// reported fewer times than before.
func checkFixResolves(t *testing.T, files []analysis.SourceFile, byFile map[string][]analysis.TextEdit,
	d analysis.Diagnostic, fix analysis.SuggestedFix, res *analysis.Result, opts analysis.Options) {
	var next []analysis.SourceFile
	for _, f := range files {
		src := f.Src
		if edits := byFile[f.Path]; len(edits) > 0 {
			src, _ = analysis.ApplyEdits(src, edits)
		}
		next = append(next, analysis.SourceFile{Path: f.Path, Src: src})
	}
	after, err := analysis.Check(context.Background(), next, opts)
	if err != nil {
		t.Fatal(err)
	}
	count := func(ds []analysis.Diagnostic) int {
		n := 0
		for _, x := range ds {
			if x.Code == d.Code {
				n++
			}
		}
		return n
	}
	if count(after.Diagnostics) >= count(res.Diagnostics) {
		t.Errorf("%s:%d: fix %q alone does not resolve %s", rel(d.File), d.Pos.Line, fix.Title, d.Code)
	}
}
