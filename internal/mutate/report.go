package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// row counts one (repository, operator, validity) cell.
type row struct {
	valid, killed, info, survived, wrong, right, invalid, unjudged, failed int
}

func (r *row) add(x *Result) {
	switch {
	case x.Outcome == "check-failed":
		r.failed++
		return
	case x.Validity == "unjudged":
		r.unjudged++
		return
	case !x.Valid:
		r.invalid++
		return
	}
	r.valid++
	switch x.Outcome {
	case "killed":
		r.killed++
	case "info-only":
		r.info++
	default:
		r.survived++
	}
	switch x.FirstError {
	case "wrong":
		r.wrong++
	case "right":
		r.right++
	}
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

// Report renders the figures of one or more repositories' results as
// Markdown: per repository and operator, oracle-judged and statically
// judged mutants apart; then every valid survivor and info-only mutant,
// and every kill whose predicted first error JAX refuted.
func Report(byRepo map[string][]*Result) string {
	var b strings.Builder
	repos := make([]string, 0, len(byRepo))
	for r := range byRepo {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	for _, group := range []string{"oracle", "static"} {
		if group == "oracle" {
			b.WriteString("### Judged by the oracle (real JAX decided the mutant fails)\n\n")
			b.WriteString("| repository | operator | valid | killed (error/warning) | info-only | survived | kill rate | first error right | wrong first error |\n|---|---|---|---|---|---|---|---|---|\n")
		} else {
			b.WriteString("\n### Judged statically (the module cannot run under the oracle)\n\n")
			b.WriteString("| repository | operator | valid | killed (error/warning) | info-only | survived | kill rate |\n|---|---|---|---|---|---|---|\n")
		}
		var total row
		for _, repo := range repos {
			var sum row
			for _, op := range Operators {
				var c row
				for _, x := range byRepo[repo] {
					if x.Op == op && (x.Validity == group) {
						c.add(x)
					}
				}
				if c.valid == 0 {
					continue
				}
				writeRow(&b, group, repo, op, c)
				sum = plus(sum, c)
			}
			if sum.valid > 0 {
				writeRow(&b, group, repo, "**all**", sum)
			}
			total = plus(total, sum)
		}
		writeRow(&b, group, "**all**", "", total)
	}
	// What did not count, and why.
	var inv, unj, failed int
	whyInvalid := map[string]int{}
	for _, repo := range repos {
		for _, x := range byRepo[repo] {
			switch {
			case x.Outcome == "check-failed":
				failed++
			case x.Validity == "unjudged":
				unj++
			case !x.Valid:
				inv++
				whyInvalid[x.Why]++
			}
		}
	}
	fmt.Fprintf(&b, "\nNot counted: %d mutants the oracle ran without a JAX error (or that only failed a test's own assertion), %d unjudged (no oracle entry and no communicating operation found statically), %d whose check failed.\n", inv, unj, failed)
	var lists = []struct {
		title string
		keep  func(*Result) bool
	}{
		{"Survivors (valid, no finding)", func(x *Result) bool { return x.Valid && x.Outcome == "survived" }},
		{"Info-only (valid, an info hint only)", func(x *Result) bool { return x.Valid && x.Outcome == "info-only" }},
		{"Kills with a wrong predicted first error", func(x *Result) bool { return x.FirstError == "wrong" }},
	}
	for _, l := range lists {
		fmt.Fprintf(&b, "\n### %s\n\n", l.title)
		n := 0
		for _, repo := range repos {
			for _, x := range byRepo[repo] {
				if !l.keep(x) {
					continue
				}
				n++
				fmt.Fprintf(&b, "- %s `%s:%d` %s: %s", repo, x.File, x.Line, x.Op, x.Desc)
				if x.Oracle != nil {
					fmt.Fprintf(&b, "; JAX: %s: %s", x.Oracle.Type, clipMsg(x.Oracle.Message))
				} else {
					fmt.Fprintf(&b, "; %s", x.Why)
				}
				if x.FirstError == "wrong" {
					var preds []string
					for _, f := range x.New {
						if f.predicts() {
							p := f.Code
							if f.JAXError != nil {
								p += " predicts " + f.JAXError.Type + ": " + clipMsg(f.JAXError.Message)
							}
							preds = append(preds, p)
						}
					}
					fmt.Fprintf(&b, "; pallas-ls: %s", strings.Join(preds, "; "))
				}
				b.WriteString("\n")
			}
		}
		if n == 0 {
			b.WriteString("(none)\n")
		}
	}
	return b.String()
}

func plus(a, c row) row {
	a.valid += c.valid
	a.killed += c.killed
	a.info += c.info
	a.survived += c.survived
	a.wrong += c.wrong
	a.right += c.right
	a.invalid += c.invalid
	a.unjudged += c.unjudged
	a.failed += c.failed
	return a
}

func writeRow(b *strings.Builder, group, repo, op string, c row) {
	if group == "oracle" {
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d | %s | %d (%s) | %d |\n", repo, op, c.valid, c.killed, c.info, c.survived,
			pct(c.killed, c.valid), c.right, pct(c.right, c.killed), c.wrong)
		return
	}
	fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d | %s |\n", repo, op, c.valid, c.killed, c.info, c.survived, pct(c.killed, c.valid))
}

// readResults reads a results.jsonl back (for -merge).
func readResults(path string) (map[string][]*Result, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	out := map[string][]*Result{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var line struct {
			Repo string `json:"repo"`
			Result
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		r := line.Result
		out[line.Repo] = append(out[line.Repo], &r)
	}
	return out, sc.Err()
}
