package oracle_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pallas-ls/pallas-ls/internal/cli"
	"github.com/pallas-ls/pallas-ls/oracle"
)

// The comparison of pallas-ls with real JAX (issue 17): for every line of
// results/<version>.jsonl, check the case as a user would (`pallas-ls check
// --jax-version VERSION` over the files the entry runs) and compare:
//
//   - JAX raised nothing: no finding that predicts a failure;
//   - JAX raised: a finding whose jax_error has the same type and whose
//     message matches, up to the {placeholders} pallas-ls leaves for what
//     JAX fills in at run time (the message is a prefix pattern).
//
// Findings that predict a failure are those of the SPMD (PAL1xx),
// kernel-configuration (PAL2xx) and removed-API (PAL301) rules at error or
// warning severity. Deprecations (PAL302) and suppression hygiene (PAL9xx)
// predict nothing: JAX runs such code.
//
// A disagreement fails the test unless known-differences.txt lists it with
// the reason it is not knowable from source; a listed pair that now agrees
// fails it too, so the list only shrinks.

var (
	report = flag.String("oracle.report", "", "write the per-pair verdicts (TSV) to this file")
	prune  = flag.Bool("oracle.prune", false, "rewrite known-differences.txt without the lines (or versions) that now agree or match nothing")
)

type result struct {
	Case  string    `json:"case"`
	Entry string    `json:"entry"`
	JAX   string    `json:"jax"`
	Error *jaxError `json:"error"`
}

type jaxError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Layer   string `json:"layer"`
}

type finding struct {
	Code     string    `json:"code"`
	Severity string    `json:"severity"`
	File     string    `json:"file"`
	Line     int       `json:"line"`
	Message  string    `json:"message"`
	JAXError *jaxError `json:"jax_error"`
}

// verdicts of one (case, entry, version) pair.
const (
	agreeSilent = "agree-silent"   // JAX ran it; pallas-ls predicts no failure
	agreeError  = "agree-error"    // JAX raised what a finding predicts
	falseAlarm  = "false-positive" // JAX ran it; pallas-ls predicts a failure
	missed      = "missed"         // JAX raised; pallas-ls predicts nothing
	wrongError  = "wrong-error"    // JAX raised; pallas-ls predicts another error
)

func TestOracleAgreement(t *testing.T) {
	root := repoRoot(t)
	results := loadResults(t, filepath.Join(root, "oracle", "results"))
	known := loadKnown(t, filepath.Join(root, "oracle", "known-differences.txt"))
	entries := entriesByCase(results)
	verdicts := make([]string, len(results))
	details := make([]string, len(results))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, r := range results {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			files := caseFiles(t, root, r.Case, entries[r.Case], r.Entry)
			verdicts[i], details[i] = judge(r, check(t, root, files, r.JAX))
		}()
	}
	wg.Wait()
	used := make([]bool, len(known))
	var bad []string
	for i, r := range results {
		k := known.match(r)
		agree := verdicts[i] == agreeSilent || verdicts[i] == agreeError
		switch {
		case agree && k >= 0:
			bad = append(bad, fmt.Sprintf("%s %s %s: agrees now (%s); remove it from known-differences.txt (line %d)",
				r.Case, r.Entry, r.JAX, verdicts[i], known[k].line))
		case !agree && k < 0:
			bad = append(bad, fmt.Sprintf("%s %s %s: %s: %s", r.Case, r.Entry, r.JAX, verdicts[i], details[i]))
		}
		if k >= 0 {
			used[k] = true
		}
	}
	for i, u := range used {
		if !u {
			bad = append(bad, fmt.Sprintf("known-differences.txt line %d matches no recorded pair", known[i].line))
		}
	}
	logTables(t, results, verdicts, known)
	writeReport(t, results, verdicts, details)
	if *prune {
		pruneKnown(t, filepath.Join(root, "oracle", "known-differences.txt"), results, verdicts, known)
		return
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

func repoRoot(t *testing.T) string {
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// loadResults reads every results file; a missing directory is a failure,
// since the comparison is the point of this package.
func loadResults(t *testing.T, dir string) []result {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(paths) == 0 {
		t.Fatalf("no results in %s", dir)
	}
	var out []result
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<24)
		for n := 1; sc.Scan(); n++ {
			var r result
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s:%d: %v", p, n, err)
			}
			out = append(out, r)
		}
	}
	return out
}

func entriesByCase(rs []result) map[string][]string {
	m := map[string][]string{}
	for _, r := range rs {
		if !contains(m[r.Case], r.Entry) {
			m[r.Case] = append(m[r.Case], r.Entry)
		}
	}
	return m
}

// caseFiles lists what running entry runs: every Python file of the case
// outside fixed/ (the fixes' golden files) and _oracle/ (drivers) but its other entries (a module other files import runs as part of
// them; an entry runs only when it is the one started).
func caseFiles(t *testing.T, root, c string, entries []string, entry string) []string {
	dir := filepath.Join(root, filepath.FromSlash(c))
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != dir && (d.Name() == "fixed" || d.Name() == "__pycache__" || d.Name() == "_oracle") {
			// Golden outputs of fixes, not part of the program (as
			// discover.py), and the drivers of library cases: a driver
			// calls the case's functions as callers outside the
			// workspace do, so it is run, never checked.
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel = filepath.ToSlash(rel); rel == entry || !contains(entries, rel) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// check runs `pallas-ls check` in process, as a user would, with the
// recorded version.
func check(t *testing.T, root string, files []string, version string) []finding {
	args := append([]string{"check", "--format", "json", "--no-cache", "--exit-zero", "--jax-version", version}, files...)
	var stdout, stderr bytes.Buffer
	if code := cli.Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Errorf("check %v: exit %d\n%s", files, code, stderr.String())
		return nil
	}
	var doc struct {
		Diagnostics []finding `json:"diagnostics"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Errorf("check %v: %v", files, err)
	}
	return doc.Diagnostics
}

// predictsFailure: the findings whose rules say JAX will raise.
func predictsFailure(f finding) bool {
	if f.Severity != "error" && f.Severity != "warning" {
		return false
	}
	return strings.HasPrefix(f.Code, "PAL1") || strings.HasPrefix(f.Code, "PAL2") || f.Code == "PAL301"
}

func judge(r result, fs []finding) (verdict, detail string) {
	var predicting []finding
	for _, f := range fs {
		if predictsFailure(f) {
			predicting = append(predicting, f)
		}
	}
	if r.Error == nil {
		if len(predicting) == 0 {
			return agreeSilent, ""
		}
		return falseAlarm, describe(predicting)
	}
	for _, f := range predicting {
		if f.JAXError != nil && f.JAXError.Type == r.Error.Type && oracle.MessageMatches(f.JAXError.Message, r.Error.Message) {
			return agreeError, f.Code
		}
	}
	got := fmt.Sprintf("JAX raised %s: %s (%s)", r.Error.Type, clip(r.Error.Message), r.Error.Layer)
	if len(predicting) == 0 {
		return missed, got
	}
	return wrongError, got + "; pallas-ls: " + describe(predicting)
}

func describe(fs []finding) string {
	var parts []string
	for _, f := range fs {
		p := f.Code + " " + filepath.Base(f.File) + ":" + fmt.Sprint(f.Line)
		if f.JAXError != nil {
			p += " predicts " + f.JAXError.Type + ": " + clip(f.JAXError.Message)
		} else {
			p += " (no jax_error)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:157] + "..."
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
