package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// ANSI styles for the terminal. Only the location, the severity and the
// code are styled, so the message stays readable on any background and a
// user copying a line gets no escape codes inside the message.
const (
	textANSIReset  = "\x1b[0m"
	textANSIBold   = "\x1b[1m"
	textANSIRed    = "\x1b[1;31m"
	textANSIYellow = "\x1b[1;33m"
	textANSICyan   = "\x1b[36m"
	textANSIDim    = "\x1b[2m"
)

// WriteText writes the spec §2 text format: one line per diagnostic,
// `path:line:col: severity CODE message`, then its related locations
// indented by four spaces. The summary line is separate (WriteTextSummary)
// so the CLI can choose where it goes.
func WriteText(w io.Writer, r Report, color bool) error {
	bw := bufio.NewWriter(w)
	st := textStyle{color: color}
	for _, d := range r.Diagnostics {
		fmt.Fprintf(bw, "%s %s %s %s\n",
			st.wrap(textANSIBold, textPos(r.path(d.File), d.Pos)+":"),
			st.wrap(textSeverityColor(d.Severity), d.Severity.String()),
			st.wrap(textANSIBold, d.Code), d.Message)
		for _, rel := range d.Related {
			fmt.Fprintf(bw, "    %s %s\n", st.wrap(textANSIDim, textPos(r.path(rel.File), rel.Pos)+":"), rel.Message)
		}
	}
	return bw.Flush()
}

// WriteTextSummary writes the closing line of a text report: how many
// problems were found by severity and how many --fix (and --unsafe-fixes)
// would address, or "All checks passed." when there are none.
func WriteTextSummary(w io.Writer, r Report, fixableSafe, fixableUnsafe int) error {
	if len(r.Diagnostics) == 0 {
		_, err := io.WriteString(w, "All checks passed.\n")
		return err
	}
	c := countForSummary(r.Diagnostics)
	parts := []string{textPlural(c.errors, "error"), textPlural(c.warnings, "warning")}
	if c.infos > 0 {
		parts = append(parts, fmt.Sprintf("%d info", c.infos))
	}
	line := fmt.Sprintf("Found %s (%s).", textPlural(len(r.Diagnostics), "problem"), strings.Join(parts, ", "))
	if s := fixableSentence(fixableSafe, fixableUnsafe); s != "" {
		line += " " + s
	}
	_, err := io.WriteString(w, line+"\n")
	return err
}

// fixableSentence tells the user which flag fixes what; unsafe fixes are
// counted separately because --fix alone leaves them alone.
func fixableSentence(safe, unsafe int) string {
	switch {
	case safe > 0 && unsafe > 0:
		return fmt.Sprintf("%d fixable with --fix (%d more with --fix --unsafe-fixes).", safe, unsafe)
	case safe > 0:
		return fmt.Sprintf("%d fixable with --fix.", safe)
	case unsafe > 0:
		return fmt.Sprintf("%d fixable with --fix --unsafe-fixes.", unsafe)
	}
	return ""
}

func textPlural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func textPos(path string, p analysis.Position) string {
	return fmt.Sprintf("%s:%d:%d", path, p.Line, p.Column)
}

type textStyle struct{ color bool }

func (s textStyle) wrap(code, text string) string {
	if !s.color {
		return text
	}
	return code + text + textANSIReset
}

func textSeverityColor(s analysis.Severity) string {
	switch s {
	case analysis.SeverityError:
		return textANSIRed
	case analysis.SeverityWarning:
		return textANSIYellow
	}
	return textANSICyan
}
