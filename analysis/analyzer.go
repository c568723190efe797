package analysis

import (
	"sort"
	"sync"

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
}

// Analyzer is one rule: a stable code, a default severity and a Run
// function reading the Pass's facts.
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
	RunFile func(pass *Pass, file *Summary)
	// Triggers, for a RunFile rule, over-approximates the files it can
	// report in: those whose text contains every word of at least one
	// trigger. Nil means any file. A file that no entry needs is parsed
	// only when some rule may report in it (prune.go), so a trigger that
	// misses a finding loses it; the pruning tests compare against
	// analysing every file.
	Triggers [][]string
}

// Pass is what a rule sees: the program, the kernel-call facts of the
// context analysis, and the options of this run.
type Pass struct {
	Analyzer    *Analyzer
	Program     *Program
	Options     *Options
	Version     lowering.Version
	KernelCalls []*KernelCall
	report      func(Diagnostic)
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

var (
	registryMu sync.Mutex
	registry   = map[string]*Analyzer{}
)

// Register adds an analyzer to the set every Check runs. Rules register
// from their package's init; registering a code twice is a programming
// error.
func Register(a *Analyzer) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[a.Code]; dup {
		panic("analysis: duplicate rule " + a.Code)
	}
	registry[a.Code] = a
}

// Analyzers returns the registered analyzers sorted by code.
func Analyzers() []*Analyzer {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]*Analyzer, 0, len(registry))
	for _, a := range registry {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Lookup returns the analyzer with the given code.
func LookupAnalyzer(code string) (*Analyzer, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	a, ok := registry[code]
	return a, ok
}
