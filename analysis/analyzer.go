package analysis

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// Doc is a rule's user documentation; docs/rules.md and `explain` are
// generated from it.
type Doc struct {
	Title     string // one line
	What      string // when it fires
	Why       string // what goes wrong at run time
	Example   string // Python that triggers it
	Fixed     string // the same code, fixed
	FixSafety string // what the fix does and whether it is safe
	Since     string // pallas-ls version that introduced the rule
	// Scaffold, for an Example that is not a program by itself, is the
	// program it stands in: the imports and definitions Example and Fixed
	// assume, and the calls that run them, with the line "# <snippet>"
	// where each goes. Never shown to users; the doc test runs Example in
	// it (the rule must fire) and Fixed (it must not).
	Scaffold string
	// JAXVersion, for an Example about an API newer than lowering.Latest or
	// a failure of older releases only, is the version the doc test checks
	// it with ("" for Latest).
	JAXVersion string
}

// SnippetLine marks where Doc.Example or Doc.Fixed goes in Doc.Scaffold.
const SnippetLine = "# <snippet>"

// Program returns the documented snippet (Example or Fixed) as the
// program the doc test runs: in the scaffold, or alone.
func (d Doc) Program(snippet string) string {
	if d.Scaffold == "" {
		return snippet
	}
	return strings.Replace(d.Scaffold, SnippetLine, snippet, 1)
}

// Analyzer is one rule: a stable code, a default severity and one of
// three run functions. A Check runs the analyzers its Options carry
// (package rules lists pallas-ls's own); there is no global registry.
type Analyzer struct {
	Code     string
	Name     string
	Severity Severity
	Doc      Doc
	// Run reports findings through pass.Report. It must not keep the pass.
	Run func(pass *Pass)
	// RunFile, set instead of Run by a rule whose findings in a file
	// depend only on that file and the options (not on the kernel-call
	// facts or other files), reports one file's findings. The engine runs
	// it per file and reuses the findings of files that did not change.
	RunFile func(pass *Pass, file *ir.Summary)
	// Triggers, for a RunFile rule, over-approximates the files it can
	// report in: those whose text contains every word of at least one
	// trigger. Nil means any file. A file that no entry needs is parsed
	// only when some rule may report in it (prune.go), so a trigger that
	// misses a finding loses it; the pruning tests compare against
	// analysing every file.
	Triggers [][]string
	// ExactTriggers, for a RunFile rule with Triggers, are more triggers
	// that count only when the configured JAX version is exact
	// (Options.ExactVersion): the rule reports what they name only then.
	ExactTriggers [][]string
	// RunSuppressions, set instead of Run by a rule about suppression
	// comments, reports one file's findings about its suppressions after
	// the other rules' findings were matched against them: each
	// Suppression says which of its codes silenced something (Used).
	// Findings of such rules are not suppressed themselves.
	RunSuppressions func(pass *Pass, file *ir.Summary, sups []*Suppression)
}

// Pass is what a rule sees: the files analysed, the kernel-call facts of
// the context analysis, and the options of this run.
type Pass struct {
	Analyzer *Analyzer
	// Analyzers is the run's rule set, sorted by code (for the rules about
	// suppressions, which must know every code).
	Analyzers   []*Analyzer
	Files       []*ir.Summary
	Options     *Options
	Version     lowering.Version
	KernelCalls []*KernelCall
	// Collectives are the collectives on axis names nothing binds (PAL104).
	Collectives []*UnboundCollective
	// ShardMaps are shard_map applications (PAL106, PAL107).
	ShardMaps []*ShardMapApply
	// EagerRefs are jax.new_ref calls with a memory space run eagerly
	// (PAL217).
	EagerRefs []*EagerRef
	report    func(Diagnostic)
	memo      *callMemo
}

// CallMemo returns what compute returns for the kernel call kc: a check
// of that one call alone. When the previous report ran the same check on
// the same fact (facts are kept while the call's contexts and files do
// not change) with the same JAX version, version reason and TPU chip,
// its result is returned instead, so a check may read only kc and those
// options. Every report keeps what this one computed or reused, nothing
// more.
func (p *Pass) CallMemo(kc *KernelCall, compute func() any) any {
	if p.memo == nil {
		return compute()
	}
	if p.memo.next == nil {
		p.memo.next = make(map[*KernelCall]any, p.memo.n)
	}
	v, ok := p.memo.prev[kc]
	if ok {
		p.memo.reused++
	} else {
		v = compute()
	}
	p.memo.next[kc] = v
	return v
}

// callMemo is one analyzer's CallMemo results: those of the last report
// (prev) and of this one (next), for the options in key.
type callMemo struct {
	key        callMemoKey
	prev, next map[*KernelCall]any
	n          int // the report's facts
	reused     int // results returned from prev (tests)
}

type callMemoKey struct {
	version      lowering.Version
	reason, chip string
}

// done keeps this report's results for the next one; a rule that failed
// keeps none.
func (m *callMemo) done(failed bool) {
	m.prev, m.next = m.next, nil
	if failed {
		m.prev = nil
	}
}

// Report records a finding of the pass's analyzer; Code, Name and
// Severity are filled in from the analyzer.
func (p *Pass) Report(d Diagnostic) {
	d.Code, d.Name = p.Analyzer.Code, p.Analyzer.Name
	if d.Severity == 0 {
		d.Severity = p.Analyzer.Severity
	}
	p.report(d)
}

// Enabled reports whether the options select the rule with this code
// (--select, --ignore and their configuration keys).
func (p *Pass) Enabled(code string) bool { return enabled(code, p.Options) }

// Lookup returns the analyzer of analyzers with the given code.
func Lookup(analyzers []*Analyzer, code string) (*Analyzer, bool) {
	for _, a := range analyzers {
		if a.Code == code {
			return a, true
		}
	}
	return nil, false
}

// sortedByCode returns analyzers ordered by code, the order rules run in.
func sortedByCode(analyzers []*Analyzer) []*Analyzer {
	return slices.SortedFunc(slices.Values(analyzers), func(a, b *Analyzer) int { return cmp.Compare(a.Code, b.Code) })
}

var (
	codeRe = regexp.MustCompile(`^PAL[0-9]{3}$`)
	nameRe = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// Validate reports the first thing wrong with a rule set: a code that is
// not PAL and three digits, or not unique; a name that is not kebab-case,
// or not unique; a severity out of range; not exactly one run function;
// triggers on a rule that is not per file, or an empty trigger word; a
// documentation field missing (FixSafety may be, for rules that offer no
// fix), or a title that is not one line without a final period. Titles of
// the fixes rules offer are checked where they are made (ValidateFixTitle).
func Validate(analyzers []*Analyzer) error {
	codes, names := map[string]bool{}, map[string]bool{}
	for _, a := range analyzers {
		if err := validateOne(a); err != nil {
			return fmt.Errorf("rule %s: %w", a.Code, err)
		}
		if codes[a.Code] || names[a.Name] {
			return fmt.Errorf("rule %s (%s): code or name used twice", a.Code, a.Name)
		}
		codes[a.Code], names[a.Name] = true, true
	}
	return nil
}

func validateOne(a *Analyzer) error {
	runs := 0
	for _, set := range []bool{a.Run != nil, a.RunFile != nil, a.RunSuppressions != nil} {
		if set {
			runs++
		}
	}
	d := a.Doc
	switch {
	case !codeRe.MatchString(a.Code):
		return fmt.Errorf("code %q is not PAL and three digits", a.Code)
	case !nameRe.MatchString(a.Name):
		return fmt.Errorf("name %q is not kebab-case", a.Name)
	case a.Severity < SeverityError || a.Severity > SeverityHint:
		return fmt.Errorf("severity %d out of range", a.Severity)
	case runs != 1:
		return fmt.Errorf("%d run functions set, want one of Run, RunFile, RunSuppressions", runs)
	case a.ExactTriggers != nil && a.Triggers == nil:
		return fmt.Errorf("exact triggers on a rule without triggers")
	case a.Triggers != nil && a.RunFile == nil:
		return fmt.Errorf("triggers on a rule that does not run per file")
	case slices.ContainsFunc(slices.Concat(a.Triggers, a.ExactTriggers), func(t []string) bool { return len(t) == 0 || slices.Contains(t, "") }):
		return fmt.Errorf("an empty trigger or trigger word")
	case d.Title == "" || d.What == "" || d.Why == "" || d.Example == "" || d.Fixed == "" || d.Since == "":
		return fmt.Errorf("documentation incomplete: title, what, why, example, fixed and since are required")
	case d.Scaffold != "" && strings.Count(d.Scaffold, SnippetLine) != 1:
		return fmt.Errorf("the scaffold must hold the line %q once", SnippetLine)
	}
	return ValidateFixTitle(d.Title)
}

// ValidateFixTitle reports what is wrong with a rule's or a fix's title:
// titles are one line of text starting with a capital letter (or a code
// span), without a final period, as editors show them in menus.
func ValidateFixTitle(title string) error {
	switch {
	case strings.TrimSpace(title) != title || title == "":
		return fmt.Errorf("title %q is empty or has surrounding blanks", title)
	case strings.ContainsAny(title, "\r\n"):
		return fmt.Errorf("title %q is more than one line", title)
	case strings.HasSuffix(title, "."):
		return fmt.Errorf("title %q ends with a period", title)
	case !(title[0] >= 'A' && title[0] <= 'Z' || title[0] == '`'):
		return fmt.Errorf("title %q does not start with a capital letter", title)
	}
	return nil
}
