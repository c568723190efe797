package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// options are the command-line settings.
type options struct {
	sizes   []int
	dir     string
	keep    string
	json    bool
	edits   int
	bin     string
	seed    uint64
	runs    int
	timeout time.Duration
	// labelsVs is a pallas-ls binary without context labels to compare
	// the binary under test with (labels.go).
	labelsVs string
	// vs is -dir -edits' second binary, whose server gets the same edits.
	vs string
	// copies and trees are -monorepo's: the numbers of copies to check,
	// and the trees copied (the arguments).
	copies  []int
	trees   []string
	profile string
}

const (
	minLines = 10_000
	maxLines = 1_000_000
)

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	lines := fs.String("lines", "100000", "corpus size in Python `lines` (10k..1M; k and M suffixes allowed)")
	sizes := fs.String("sizes", "", "comma-separated corpus `sizes` to run in turn, e.g. 10000,100000,1000000; prints the growth curve")
	fs.StringVar(&o.dir, "dir", "", "measure the existing tree under `DIR` (e.g. a JAX checkout) instead of a generated corpus: parse-only floor and checks; an editor session of one-line edits only when -edits is given")
	fs.StringVar(&o.keep, "keep", "", "write the corpus under `DIR` and keep it (with -sizes: DIR/<lines>)")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON on stdout")
	fs.IntVar(&o.edits, "edits", 50, "editor re-check samples (and hover samples); 0 skips the editor test")
	fs.StringVar(&o.bin, "bin", "", "pallas-ls binary to measure (default: go build ./cmd/pallas-ls into a temp dir)")
	fs.Uint64Var(&o.seed, "seed", 1, "generator seed")
	fs.IntVar(&o.runs, "runs", 1, "repeat the cold and warm checks `N` times and keep the fastest")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "limit on each wait (a check run, indexing, one edit)")
	fs.StringVar(&o.labelsVs, "labels-vs", "", "measure only what context labels add to edit latency: the binary under test, asking for inlay hints after each edit, against `BIN` (a build without labels), edits interleaved; with -dir too")
	fs.StringVar(&o.vs, "vs", "", "with -dir and -edits: run `BIN`'s server on the tree too, the same edits made in both in turn (order alternating), and report both side by side")
	mono := fs.String("monorepo", "", "check `K` copies of the trees given as arguments as one program, each copy under a top folder of its own, for 1..K copies (or a list: 1,4,16); reports wall, CPU, peak RSS and their growth (monorepo.go)")
	fs.StringVar(&o.profile, "profile", "", "with -monorepo: write each check's CPU profile to `DIR`/monorepo-<copies>.prof; with -dir and -edits: the editor session server profile to DIR/editor-this.prof (-vs: and editor-vs.prof)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *mono != "" {
		var err error
		if o.copies, err = parseCopies(*mono); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return nil, fmt.Errorf("-monorepo: give the trees to copy as arguments")
		}
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for _, name := range []string{"lines", "sizes", "keep", "seed", "dir", "labels-vs", "edits", "vs"} {
			if set[name] {
				return nil, fmt.Errorf("-monorepo measures copies of the trees given; -%s does not apply", name)
			}
		}
		if o.runs < 1 || o.timeout <= 0 {
			return nil, fmt.Errorf("-runs and -timeout must be positive")
		}
		o.trees = fs.Args()
		return o, nil
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.dir != "" {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for _, name := range []string{"lines", "sizes", "keep"} {
			if set[name] {
				return nil, fmt.Errorf("-dir measures an existing tree; -%s does not apply", name)
			}
		}
		if o.labelsVs == "" && !set["edits"] {
			o.edits = 0 // the editor session on a tree is asked for
		}
		if o.edits < 0 || o.timeout <= 0 || o.runs < 1 {
			return nil, fmt.Errorf("-edits, -runs and -timeout must be positive")
		}
		if o.vs != "" && (o.edits == 0 || o.labelsVs != "") {
			return nil, fmt.Errorf("-vs applies to -dir with -edits")
		}
		if o.vs != "" {
			var err error
			if o.vs, err = filepath.Abs(o.vs); err != nil {
				return nil, err
			}
		}
		if o.profile != "" && (o.edits == 0 || o.labelsVs != "") {
			return nil, fmt.Errorf("-profile applies to -monorepo, or to -dir with -edits")
		}
		return o, nil
	}
	if o.profile != "" {
		return nil, fmt.Errorf("-profile applies to -monorepo, or to -dir with -edits")
	}
	if o.vs != "" {
		return nil, fmt.Errorf("-vs applies to -dir with -edits")
	}
	list := *lines
	if *sizes != "" {
		list = *sizes
	}
	var err error
	if o.sizes, err = parseSizes(list); err != nil {
		return nil, err
	}
	if o.edits < 0 || o.timeout <= 0 || o.runs < 1 {
		return nil, fmt.Errorf("-edits, -runs and -timeout must be positive")
	}
	return o, nil
}

// parseSizes reads "10000,100k,1M".
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := parseSize(strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func parseSize(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult, s = 1000, s[:len(s)-1]
	case strings.HasSuffix(s, "M"), strings.HasSuffix(s, "m"):
		mult, s = 1_000_000, s[:len(s)-1]
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if err != nil {
		return 0, fmt.Errorf("bad size %q: %v", s, err)
	}
	n *= mult
	if n < minLines || n > maxLines {
		return 0, fmt.Errorf("size %d out of range: give %d..%d lines", n, minLines, maxLines)
	}
	return n, nil
}
