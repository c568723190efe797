package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// benchCorpus is the corpus of the in-process benchmarks: 20k lines, or
// $PALLAS_BENCH_LINES (e.g. 300000 to profile a 1,000-file workspace).
func benchCorpus(b *testing.B) *Corpus {
	b.Helper()
	lines := 20000
	if v := os.Getenv("PALLAS_BENCH_LINES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("PALLAS_BENCH_LINES=%q: want a positive line count", v)
		}
		lines = n
	}
	return Generate(Config{Lines: lines, Seed: 1})
}

func reportLines(b *testing.B, lines int) {
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkParse parses the corpus on GOMAXPROCS workers (the floor).
func BenchmarkParse(b *testing.B) {
	c := benchCorpus(b)
	py := c.Python()
	b.SetBytes(int64(c.Bytes))
	for b.Loop() {
		if _, _, err := parseAll(py); err != nil {
			b.Fatal(err)
		}
	}
	reportLines(b, c.Lines)
}

// BenchmarkCheckCold runs the whole engine with nothing cached.
func BenchmarkCheckCold(b *testing.B) {
	c := benchCorpus(b)
	src := sources(c.Python())
	for b.Loop() {
		if _, err := analysis.Check(context.Background(), src, analysis.Options{Analyzers: rules.All()}); err != nil {
			b.Fatal(err)
		}
	}
	reportLines(b, c.Lines)
}

// BenchmarkRecheck is the editor's path in process: an Engine that has
// summarised the corpus re-checks it after a comment line was added to (or
// removed from) the hot file, which moves every line below it.
func BenchmarkRecheck(b *testing.B) {
	recheck(b, func(src []byte, c *Corpus) []byte { return append([]byte("# edited\n"), src...) })
}

// BenchmarkRecheckCode re-checks after an edit that changes what the
// analysis sees: remote=True becomes remote=False in the hot file.
func BenchmarkRecheckCode(b *testing.B) {
	recheck(b, func(src []byte, c *Corpus) []byte {
		lines := strings.SplitAfter(string(src), "\n")
		l := lines[c.Hot.Flag.Line]
		if l[c.Hot.Flag.Col:c.Hot.Flag.Col+4] != "True" {
			b.Fatalf("no True at the hot flag: %q", l)
		}
		lines[c.Hot.Flag.Line] = l[:c.Hot.Flag.Col] + "False" + l[c.Hot.Flag.Col+4:]
		return []byte(strings.Join(lines, ""))
	})
}

func recheck(b *testing.B, edit func([]byte, *Corpus) []byte) {
	c := benchCorpus(b)
	src := sources(c.Python())
	hot := -1
	for i, f := range src {
		if f.Path == "/corpus/"+c.Hot.Path {
			hot = i
		}
	}
	variants := [2][]byte{src[hot].Src, edit(src[hot].Src, c)}
	e := analysis.NewEngine()
	ctx := context.Background()
	if _, err := e.Check(ctx, src, analysis.Options{Analyzers: rules.All()}); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		src[hot].Src = variants[i%2]
		if _, err := e.Check(ctx, src, analysis.Options{Analyzers: rules.All()}); err != nil {
			b.Fatal(err)
		}
	}
	reportLines(b, c.Lines)
}
