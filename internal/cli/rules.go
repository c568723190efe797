package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// rulesDocURL is where docs/rules.md is published; SARIF helpUri and
// `explain` link to a rule's section in it.
const rulesDocURL = "https://github.com/pallas-ls/pallas-ls/blob/main/docs/rules.md"

const rulesUsage = `usage: pallas-ls rules [--format text|json|markdown]

List the rules: a table (text), a JSON array with each rule's full
documentation, or the Markdown of docs/rules.md.
`

// runRules is the `rules` command.
func runRules(e *env, args []string) int {
	fs := newFlagSet("rules")
	format := fs.String("format", "text", "text, json or markdown")
	rest, err := parseInterspersed(fs, args)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("rules takes no arguments, got %q", rest[0])
	}
	if err == nil {
		err = choice("--format", *format, "text", "json", "markdown")
	}
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(e.stdout, rulesUsage)
		return exitOK
	case err != nil:
		return usageFailure(e, err.Error(), "rules")
	}
	switch *format {
	case "json":
		err = writeRulesJSON(e.stdout, rules.All())
	case "markdown":
		err = writeRulesMarkdown(e.stdout, rules.All())
	default:
		err = writeRulesText(e.stdout, rules.All())
	}
	if err != nil {
		printError(e.stderr, err.Error())
		return exitError
	}
	return exitOK
}

func writeRulesText(w io.Writer, rules []*analysis.Analyzer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tNAME\tSEVERITY\tTITLE")
	for _, a := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Code, a.Name, a.Severity, a.Doc.Title)
	}
	return tw.Flush()
}

// jsonRule is one element of `rules --format json`; field order is the
// order users see.
type jsonRule struct {
	Code      string `json:"code"`
	Name      string `json:"name"`
	Severity  string `json:"severity"`
	Title     string `json:"title"`
	What      string `json:"what"`
	Why       string `json:"why"`
	Example   string `json:"example"`
	Fixed     string `json:"fixed"`
	FixSafety string `json:"fix_safety"`
	Since     string `json:"since"`
	HelpURI   string `json:"help_uri"`
}

func writeRulesJSON(w io.Writer, rules []*analysis.Analyzer) error {
	out := make([]jsonRule, 0, len(rules))
	for _, a := range rules {
		d := a.Doc
		out = append(out, jsonRule{
			Code: a.Code, Name: a.Name, Severity: a.Severity.String(), Title: d.Title,
			What: d.What, Why: d.Why, Example: d.Example, Fixed: d.Fixed,
			FixSafety: d.FixSafety, Since: d.Since, HelpURI: ruleHelpURI(a),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// ruleAnchor is the GitHub anchor of a rule's heading in docs/rules.md
// ("## PAL101: comm-outside-shard-map" -> "pal101-comm-outside-shard-map").
func ruleAnchor(a *analysis.Analyzer) string {
	return strings.ToLower(a.Code) + "-" + a.Name
}

func ruleHelpURI(a *analysis.Analyzer) string {
	return rulesDocURL + "#" + ruleAnchor(a)
}

// ruleInfos describes every rule for SARIF's rule objects.
func ruleInfos() []RuleInfo {
	var out []RuleInfo
	for _, a := range rules.All() {
		out = append(out, RuleInfo{
			Code: a.Code, Name: a.Name, Title: a.Doc.Title, Description: a.Doc.What,
			HelpURI: ruleHelpURI(a), DefaultSeverity: a.Severity,
		})
	}
	return out
}

// lookupRule finds a rule by code ("PAL301", any case) or name
// ("removed-api").
func lookupRule(arg string) (*analysis.Analyzer, bool) {
	if a, ok := analysis.Lookup(rules.All(), strings.ToUpper(arg)); ok {
		return a, true
	}
	for _, a := range rules.All() {
		if a.Name == strings.ToLower(arg) {
			return a, true
		}
	}
	return nil, false
}
