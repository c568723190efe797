package oracle_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"testing"
)

// knownDiff is one line of known-differences.txt:
//
//	<case> <entry> <versions> -- <reason>
//
// case and entry are as in the results (case may end in /* to cover every
// case under a directory, entry may be *); versions is * or a
// comma-separated list of versions or prefixes ending in * ("0.4.*").
// Blank lines and lines starting with # are comments.
type knownDiff struct {
	line                  int
	caseGlob, entry, vers string
	reason                string
}

type knownList []knownDiff

func loadKnown(t *testing.T, file string) knownList {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out knownList
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, reason, ok := strings.Cut(line, " -- ")
		f := strings.Fields(head)
		if !ok || len(f) != 3 || strings.TrimSpace(reason) == "" {
			t.Fatalf("known-differences.txt:%d: want `<case> <entry> <versions> -- <reason>`", n)
		}
		out = append(out, knownDiff{line: n, caseGlob: f[0], entry: f[1], vers: f[2], reason: strings.TrimSpace(reason)})
	}
	return out
}

// match returns the index of the first line covering r, or -1.
func (l knownList) match(r result) int {
	for i, k := range l {
		if k.covers(r) {
			return i
		}
	}
	return -1
}

func (k knownDiff) covers(r result) bool {
	if ok, _ := path.Match(k.caseGlob, r.Case); !ok && k.caseGlob != r.Case {
		return false
	}
	if k.entry != "*" && k.entry != r.Entry {
		return false
	}
	if k.vers == "*" {
		return true
	}
	for _, v := range strings.Split(k.vers, ",") {
		if v == r.JAX || strings.HasSuffix(v, "*") && strings.HasPrefix(r.JAX, strings.TrimSuffix(v, "*")) {
			return true
		}
	}
	return false
}

// logTables prints the agreement by version and by the rule that agreed,
// the figures the closing note reports.
func logTables(t *testing.T, rs []result, verdicts []string, known knownList) {
	byVersion := map[string]map[string]int{}
	for i, r := range rs {
		if byVersion[r.JAX] == nil {
			byVersion[r.JAX] = map[string]int{}
		}
		byVersion[r.JAX][verdicts[i]]++
		if known.match(r) >= 0 {
			byVersion[r.JAX]["known"]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %6s %7s %7s %6s %6s %6s %6s %7s\n", "version", "pairs", "silent", "error", "false+", "missed", "wrong", "known", "agree%")
	total := map[string]int{}
	for _, v := range sortedKeys(byVersion) {
		m := byVersion[v]
		n := m[agreeSilent] + m[agreeError] + m[falseAlarm] + m[missed] + m[wrongError]
		for k, c := range m {
			total[k] += c
		}
		b.WriteString(row(v, n, m))
	}
	n := total[agreeSilent] + total[agreeError] + total[falseAlarm] + total[missed] + total[wrongError]
	b.WriteString(row("all", n, total))
	t.Logf("oracle agreement:\n%s", b.String())
}

func row(name string, n int, m map[string]int) string {
	pct := 0.0
	if n > 0 {
		pct = 100 * float64(m[agreeSilent]+m[agreeError]) / float64(n)
	}
	return fmt.Sprintf("%-10s %6d %7d %7d %6d %6d %6d %6d %6.1f%%\n", name, n, m[agreeSilent], m[agreeError],
		m[falseAlarm], m[missed], m[wrongError], m["known"], pct)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeReport writes every pair's verdict when -oracle.report is given.
func writeReport(t *testing.T, rs []result, verdicts, details []string) {
	if *report == "" {
		return
	}
	var b strings.Builder
	for i, r := range rs {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", r.Case, r.Entry, r.JAX, verdicts[i], strings.ReplaceAll(details[i], "\t", " "))
	}
	if err := os.WriteFile(*report, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pruneKnown rewrites the known-differences file (-oracle.prune): a line
// whose pairs all agree now, or that matches no recorded pair, goes; a line
// some of whose versions agree now keeps only the versions that still
// disagree. Comments, order and reasons are kept. New disagreements are
// not added: each needs a fix or a reason.
func pruneKnown(t *testing.T, file string, rs []result, verdicts []string, known knownList) {
	still := make([]map[string]bool, len(known))   // line index -> versions still disagreeing
	covered := make([]map[string]bool, len(known)) // line index -> versions it matches
	for i, r := range rs {
		k := known.match(r)
		if k < 0 {
			continue
		}
		if covered[k] == nil {
			covered[k] = map[string]bool{}
		}
		covered[k][r.JAX] = true
		if verdicts[i] != agreeSilent && verdicts[i] != agreeError {
			if still[k] == nil {
				still[k] = map[string]bool{}
			}
			still[k][r.JAX] = true
		}
	}
	byLine := map[int]int{}
	for i, k := range known {
		byLine[k.line] = i
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	dropped := 0
	lines := strings.SplitAfter(string(data), "\n")
	for n, text := range lines {
		i, ok := byLine[n+1]
		if !ok {
			b.WriteString(text)
			continue
		}
		k := known[i]
		switch {
		case len(still[i]) == 0:
			dropped++
			continue
		case len(still[i]) < len(covered[i]):
			vs := sortedKeys(still[i])
			fmt.Fprintf(&b, "%s %s %s -- %s\n", k.caseGlob, k.entry, strings.Join(vs, ","), k.reason)
		default:
			b.WriteString(text)
		}
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("oracle.prune: dropped %d lines of %s", dropped, file)
}
