package main

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

const testLines = 5000

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := Generate(Config{Lines: testLines, Seed: 7}), Generate(Config{Lines: testLines, Seed: 7})
	if len(a.Files) != len(b.Files) {
		t.Fatalf("same seed, %d files then %d", len(a.Files), len(b.Files))
	}
	for i := range a.Files {
		if a.Files[i].Path != b.Files[i].Path || !bytes.Equal(a.Files[i].Src, b.Files[i].Src) {
			t.Fatalf("same seed, %s differs", a.Files[i].Path)
		}
	}
	if c := Generate(Config{Lines: testLines, Seed: 8}); bytes.Equal(c.Files[len(c.Files)/2].Src, a.Files[len(a.Files)/2].Src) {
		t.Errorf("another seed gave the same file %s", c.Files[len(c.Files)/2].Path)
	}
}

func TestGenerateSize(t *testing.T) {
	c := Generate(Config{Lines: 50000, Seed: 1})
	if c.Lines < 50000 || c.Lines > 55000 {
		t.Errorf("asked for 50000 lines, got %d", c.Lines)
	}
	if share := float64(c.JAXLines) / float64(c.Lines); share < 0.25 || share > 0.45 {
		t.Errorf("JAX share %.2f, want about 0.3", share)
	}
	if c.Hot.Lines < 2900 || c.Hot.Lines > 3100 {
		t.Errorf("hot file has %d lines, want about 3000", c.Hot.Lines)
	}
}

func TestCorpusParsesCleanly(t *testing.T) {
	for _, f := range Generate(Config{Lines: testLines, Seed: 1}).Python() {
		tree, err := pyparse.Parse(f.Src)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if errs := tree.SyntaxErrors(); len(errs) > 0 {
			m := pyparse.NewMapper(f.Src)
			line, col := m.LineCol(errs[0].Span.Start)
			t.Errorf("%s:%d:%d: syntax error (%d in the file)", f.Path, line, col, len(errs))
		}
	}
}

// check runs the engine on a corpus held in memory.
func check(t testing.TB, files []File) *analysis.Result {
	t.Helper()
	res, err := analysis.Check(context.Background(), sources(files), analysis.Options{Analyzers: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sources(files []File) []analysis.SourceFile {
	out := make([]analysis.SourceFile, len(files))
	for i, f := range files {
		out[i] = analysis.SourceFile{Path: "/corpus/" + f.Path, Src: f.Src}
	}
	return out
}

func pal101In(res *analysis.Result, path string) int {
	n := 0
	for _, d := range res.Diagnostics {
		if d.Code == "PAL101" && (path == "" || d.File == "/corpus/"+path) {
			n++
		}
	}
	return n
}

// TestCorpusFindings checks the planted bugs are found, and that the
// editor test's flag edit removes one of the hot file's findings.
func TestCorpusFindings(t *testing.T) {
	c := Generate(Config{Lines: testLines, Seed: 1})
	py := c.Python()
	res := check(t, py)
	before := pal101In(res, c.Hot.Path)
	if pal101In(res, "") == 0 || before == 0 {
		t.Fatalf("PAL101: %d in the corpus, %d in %s; want some in both", pal101In(res, ""), before, c.Hot.Path)
	}
	for i, f := range py {
		if f.Path == c.Hot.Path {
			py[i].Src = flipFlag(t, f.Src, c.Hot.Flag)
		}
	}
	if after := pal101In(check(t, py), c.Hot.Path); after >= before {
		t.Errorf("remote=False left %d PAL101 in the hot file (had %d)", after, before)
	}
}

func flipFlag(t *testing.T, src []byte, p Pos) []byte {
	lines := strings.Split(string(src), "\n")
	if got := lines[p.Line][p.Col:]; !strings.HasPrefix(got, "True") {
		t.Fatalf("flag position %v holds %q", p, got)
	}
	lines[p.Line] = lines[p.Line][:p.Col] + "False" + lines[p.Line][p.Col+4:]
	return []byte(strings.Join(lines, "\n"))
}

func TestParseSizes(t *testing.T) {
	got, err := parseSizes("10000,100k,1M")
	if err != nil || len(got) != 3 || got[0] != 10000 || got[1] != 100000 || got[2] != 1000000 {
		t.Errorf("parseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"9999", "2M", "ten", ""} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q) accepted", bad)
		}
	}
}

// TestPruningKeepsCorpusResults: on generated corpora (kernels, callers,
// wrappers and plain code sharing helpers with them), the result with
// pruning equals the result of analysing every file, in every detail.
func TestPruningKeepsCorpusResults(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		src := sources(Generate(Config{Lines: 20000, Seed: seed}).Python())
		ctx := context.Background()
		opts := analysis.Options{ShowInfo: true, Analyzers: rules.All()}
		pruned, err := analysis.Check(ctx, src, opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.NoPrune = true
		full, err := analysis.Check(ctx, src, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Diagnostics) == 0 || !reflect.DeepEqual(pruned, full) {
			t.Errorf("seed %d: pruning changed the result (%d findings pruned, %d full)", seed, len(pruned.Diagnostics), len(full.Diagnostics))
		}
	}
}

// TestPickAnywhere: the random insertion points are reproducible, spread
// over many files, and each is a line a statement can go before.
func TestPickAnywhere(t *testing.T) {
	c := Generate(Config{Lines: 20000, Seed: 1})
	a, b := pickAnywhere(c, 120, 1), pickAnywhere(c, 120, 1)
	if len(a) != 120 {
		t.Fatalf("got %d points, want 120", len(a))
	}
	files := map[string]bool{}
	for i := range a {
		if a[i].path != b[i].path || a[i].line != b[i].line {
			t.Fatal("the same seed chose different points")
		}
		files[a[i].path] = true
		l := a[i].text[a[i].line]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			t.Errorf("%s:%d is not a statement: %q", a[i].path, a[i].line+1, l)
		}
		if i >= 40 {
			continue // parsing is the slow part
		}
		// The inserted line keeps the file valid Python.
		lines := slices.Clone(a[i].text)
		indent := len(l) - len(strings.TrimLeft(l, " "))
		lines = slices.Insert(lines, a[i].line, strings.Repeat(" ", indent)+anywhereStmt)
		tree, err := pyparse.Parse([]byte(strings.Join(lines, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		if errs := tree.SyntaxErrors(); len(errs) > 0 {
			t.Errorf("%s:%d: the inserted statement makes a syntax error: %v", a[i].path, a[i].line+1, errs[0])
		}
	}
	if len(files) < 20 {
		t.Errorf("120 points fell in only %d files", len(files))
	}
}
