package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// WriteGitHub writes one GitHub Actions workflow command per diagnostic,
// `::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=PAL101::message`,
// which the runner turns into an annotation on the pull request's diff.
// Info and hint become notices. Related locations (the witness path) follow
// the message on extra lines, since an annotation has no other place for
// them and the path is what explains a PAL101.
func WriteGitHub(w io.Writer, r Report) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		fmt.Fprintf(bw, "::%s %s::%s\n", githubCommand(d.Severity),
			githubProperties(r.path(d.File), d.Pos, d.Code), githubEscapeData(githubMessage(r, d)))
	}
	return bw.Flush()
}

func githubCommand(s analysis.Severity) string {
	switch s {
	case analysis.SeverityError:
		return "error"
	case analysis.SeverityWarning:
		return "warning"
	}
	return "notice"
}

// githubProperties renders the comma-separated key=value list; end
// positions are left out when unknown rather than sent as 0.
func githubProperties(file string, p analysis.Position, code string) string {
	props := []string{"file=" + githubEscapeProperty(file),
		fmt.Sprintf("line=%d", p.Line), fmt.Sprintf("col=%d", p.Column)}
	if p.EndLine > 0 {
		props = append(props, fmt.Sprintf("endLine=%d", p.EndLine), fmt.Sprintf("endColumn=%d", p.EndColumn))
	}
	props = append(props, "title="+githubEscapeProperty(code))
	return strings.Join(props, ",")
}

func githubMessage(r Report, d analysis.Diagnostic) string {
	var b strings.Builder
	b.WriteString(d.Message)
	for _, rel := range d.Related {
		fmt.Fprintf(&b, "\n  %s: %s", textPos(r.path(rel.File), rel.Pos), rel.Message)
	}
	return b.String()
}

// githubDataEscaper escapes a command's message the way the Actions runner
// unescapes it. A Replacer works in one pass, so the '%' of an escape it
// adds is never escaped again.
var githubDataEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// githubPropertyEscaper additionally escapes the property list's own
// separators, so a path containing ',' or ':' cannot end a property early.
var githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

func githubEscapeData(s string) string     { return githubDataEscaper.Replace(s) }
func githubEscapeProperty(s string) string { return githubPropertyEscaper.Replace(s) }
