package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
)

const explainUsage = `usage: pallas-ls explain CODE

Print a rule's documentation: when it fires, why it matters, an example and
its fix. CODE is a rule code (PAL301) or name (removed-api).
`

// explainWidth is where prose is wrapped: readable in any terminal, and
// code examples are never wrapped.
const explainWidth = 80

// runExplain is the `explain` command (staticcheck's -explain).
func runExplain(e *env, args []string) int {
	fs := newFlagSet("explain")
	rest, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(e.stdout, explainUsage)
		return exitOK
	case err != nil:
		return usageFailure(e, err.Error(), "explain")
	case len(rest) != 1:
		return usageFailure(e, fmt.Sprintf("explain takes one rule code, got %d arguments", len(rest)), "explain")
	}
	a, ok := lookupRule(rest[0])
	if !ok {
		printError(e.stderr, fmt.Sprintf("unknown rule %q; run 'pallas-ls rules' for the list", rest[0]))
		return exitError
	}
	if err := writeExplain(e.stdout, a); err != nil {
		printError(e.stderr, err.Error())
		return exitError
	}
	return exitOK
}

func writeExplain(w io.Writer, a *analysis.Analyzer) error {
	bw := bufio.NewWriter(w)
	d := a.Doc
	fmt.Fprintf(bw, "%s %s (default severity: %s)\n", a.Code, a.Name, a.Severity)
	explainProse(bw, "", d.Title)
	explainProse(bw, "When it fires", d.What)
	explainProse(bw, "Why it matters", d.Why)
	explainCode(bw, "Example", d.Example)
	explainCode(bw, "Fixed", d.Fixed)
	explainProse(bw, "Fix", d.FixSafety)
	fmt.Fprintf(bw, "\nSuppress one finding with `# pallas-ls: ignore[%s]`.\n", a.Code)
	if d.Since != "" {
		fmt.Fprintf(bw, "Since pallas-ls %s. ", d.Since)
	}
	fmt.Fprintf(bw, "More: %s\n", ruleHelpURI(a))
	return bw.Flush()
}

// explainProse prints an optional label and wrapped, indented text.
func explainProse(w *bufio.Writer, label, text string) {
	if text = strings.TrimSpace(text); text == "" {
		return
	}
	indent := ""
	if label != "" {
		fmt.Fprintf(w, "\n%s:\n", label)
		indent = "  "
	}
	for _, line := range wrap(text, explainWidth-len(indent)) {
		fmt.Fprintf(w, "%s%s\n", indent, line)
	}
}

// explainCode prints code indented by four spaces, as written.
func explainCode(w *bufio.Writer, label, code string) {
	if code = strings.Trim(code, "\n"); code == "" {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", label)
	for _, line := range strings.Split(code, "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
}

// wrap breaks text into lines of at most width bytes at spaces; a word
// longer than width gets a line of its own.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
