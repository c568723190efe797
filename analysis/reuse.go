package analysis

import (
	"slices"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// The editor's fast path. Most keystrokes do not change what the
// interpreter sees: a comment, a blank line, indentation inside brackets,
// a suppression comment. Such an edit leaves a file's IR the same apart
// from positions, and the interpreter never reads positions or source
// text (it keeps references into the IR, see text and reachState). So
// when every changed file's new IR has the shape of its old one, the
// previous run's state is still the state a fresh run would reach: the
// old IR nodes take the new positions in place, the old summary takes
// the new source, and only the rules, suppressions and notes run again.
//
// Two more kinds of edit keep the last run, because the run never read
// what they change: an edit of a file whose module the run never executed
// (neverRan), and an edit inside the bodies of functions it never called
// (ir/deadbody.go). In both a fresh run would take the same steps.
//
// The shape comparison below visits every field of the IR types; a test
// (reuse_test.go) lists those fields so that a field added later cannot be
// forgotten here.

// lastRun is what Engine keeps of its previous successful run.
type lastRun struct {
	// runKey is the options' part the run read (Options.runKey), optsKey
	// all of them, as the last report rendered it.
	runKey, optsKey string
	layout          string        // the key of the layout of the program's module names
	relGen          int           // the relevance (entry modules) it was run with
	sums            []*ir.Summary // the analysed summaries, in order
	prog            *program
	in              *interp
	// files holds the findings of RunFile rules per file, valid while the
	// summary's hash is the one recorded.
	files map[fileRule]fileFindings
	// supps caches each file's parsed suppression comments, by hash too.
	supps, suppsNext map[*ir.Summary]fileSuppressions
	// kernelCalls are the facts last rendered, one per recorded kernel call;
	// moved lists the summaries moved since, whose facts must be rendered
	// again.
	kernelCalls []*KernelCall
	moved       map[*ir.Summary]bool
	// infos are the hover descriptions of kernelCalls, by index; nil
	// entries of infoOf are to be described again.
	infos  []KernelCallInfo
	infoOf []*KernelCall
	// byFile lists, per summary, the indexes of kernelCalls whose facts
	// refer to it (filesOf), built on first use.
	byFile map[*ir.Summary][]int
	// pending, when not -1, is the entry a cancelled resume was taken back
	// to (its mark dropped, its place in pendingAt): the run must resume
	// from there before its facts stand.
	pending   int
	pendingAt cursor
	// changed and changedMods hold the bodies reuse swapped and the
	// modules whose summary it replaced for the resume to come: the main
	// blocks that ran none of them are replayed (detached.go).
	changed     map[*ir.FuncDef]bool
	changedMods map[*module]bool
	// memos are the per-call checks' results of the last report, by
	// analyzer (Pass.CallMemo).
	memos map[string]*callMemo
}

type fileSuppressions struct {
	hash [32]byte
	list []*Suppression
}

// suppressions returns s's suppression comments, parsed once per content;
// each call gets fresh copies, since applying them marks them used.
func (l *lastRun) suppressions(s *ir.Summary) []*Suppression {
	if l.supps == nil {
		l.supps = map[*ir.Summary]fileSuppressions{}
	}
	c, ok := l.supps[s]
	if !ok || c.hash != s.Hash {
		c = fileSuppressions{hash: s.Hash, list: suppressions(s)}
	}
	l.suppsNext[s] = c
	out := make([]*Suppression, len(c.list))
	for i, sp := range c.list {
		cp := *sp
		cp.used = map[string]bool{}
		out[i] = &cp
	}
	return out
}

// facts renders the analysis's kernel calls, reusing those that refer to
// no moved summary.
func (l *lastRun) facts() []*KernelCall {
	if l.kernelCalls == nil {
		l.kernelCalls = l.in.facts(l.moved)
	} else if len(l.moved) > 0 {
		if l.byFile == nil {
			l.byFile = map[*ir.Summary][]int{}
			for i := range l.kernelCalls {
				for _, s := range l.in.factFiles(i) {
					l.byFile[s] = append(l.byFile[s], i)
				}
			}
		}
		done := map[int]bool{}
		for s := range l.moved {
			for _, i := range l.byFile[s] {
				if !done[i] {
					done[i] = true
					l.kernelCalls[i] = l.in.factAt(i)
				}
			}
		}
	}
	l.moved = nil
	return l.kernelCalls
}

// kernelInfos describes the facts for hovers, again only those rendered
// since the last call.
func (l *lastRun) kernelInfos(facts []*KernelCall) []KernelCallInfo {
	if len(l.infos) != len(facts) {
		l.infos, l.infoOf = make([]KernelCallInfo, len(facts)), make([]*KernelCall, len(facts))
	}
	for i, f := range facts {
		if l.infoOf[i] != f {
			l.infos[i], l.infoOf[i] = kernelInfo(f), f
		}
	}
	return slices.Clone(l.infos) // each Result owns its slice
}

type fileRule struct {
	a *Analyzer
	s *ir.Summary
}

type fileFindings struct {
	hash  [32]byte
	diags []Diagnostic
	seen  int // the report that last used it
}

// fileFindings returns a's findings in s, from l.files when s did not
// change, and records them there for the next report, stamped with gen.
// A rule that panics in s (runRule) is run again next time.
func (l *lastRun) fileFindings(gen int, p *Pass, s *ir.Summary) (found, failed []Diagnostic) {
	key := fileRule{p.Analyzer, s}
	f, ok := l.files[key]
	if !ok || f.hash != s.Hash {
		f = fileFindings{hash: s.Hash}
		f.diags, failed = runRule(p, s, func(p *Pass) { p.Analyzer.RunFile(p, s) })
		if failed != nil {
			delete(l.files, key)
			return nil, failed
		}
	}
	f.seen = gen
	l.files[key] = f
	return f.diags, nil
}

// dropUnseen forgets the per-file findings the report gen did not use
// (files gone, rules disabled), when there are any.
func (l *lastRun) dropUnseen(gen, used int) {
	if len(l.files) == used {
		return
	}
	for k, f := range l.files {
		if f.seen != gen {
			delete(l.files, k)
		}
	}
}

// reuse returns the previous run's state when sums differ from the
// summaries it analysed only by edits that keep each file's IR shape,
// after moving the old summaries onto the new text. sums is updated to
// the old summaries, which stand for the new text from then on.
// Summaries already moved onto their new text in place (e.shifted,
// ir/trivia.go) are marked moved too.
//
// resume is -1 when the last run's facts stand as they are; otherwise the
// edits changed bodies the run executed, and the run must be resumed from
// that entry (resume.go) before its facts are rendered.
func (e *Engine) reuse(sums []*ir.Summary, runKey, layout string, relGen int) (l *lastRun, resume int) {
	l = e.last
	if l == nil || l.runKey != runKey || l.layout != layout || l.relGen != relGen || len(l.sums) != len(sums) ||
		l.in.budgetSpent() { // where a run stops depends on the size of the files (stepBudget)
		return nil, -1
	}
	var changed []int
	for i, s := range sums {
		old := l.sums[i]
		if old.Path != s.Path {
			return nil, -1
		}
		if old != s {
			changed = append(changed, i)
		}
	}
	// How each changed file keeps the last run: its IR has the old shape
	// (moved onto the new text), or the run never executed its module (the
	// new summary replaces the old), or only bodies the run never executed
	// changed (merged, ir/deadbody.go). Decided for all before any changes.
	dead := make([]*ir.ShapeWalk, len(changed)) // for a merge
	unrun := make([]bool, len(changed))
	rerun := make([]int, len(changed)) // the first entry that ran the module, or -1
	for k, i := range changed {
		rerun[k] = -1
		switch {
		case ir.SameShape(l.sums[i], sums[i]):
		case l.neverRan(l.sums[i]):
			unrun[k] = true
		default:
			w, ok := ir.CompareDead(l.sums[i], sums[i], l.neverCalled)
			if !ok {
				w, ok = ir.CompareBodies(l.sums[i], sums[i], l.neverCalled)
			}
			if ok {
				dead[k] = w
				continue
			}
			// Module-level code changed: resumed from the entry that first
			// ran the module, the first to read any of its IR.
			if rerun[k] = l.firstRun(l.sums[i]); rerun[k] < 0 {
				return nil, -1
			}
		}
	}
	// The first entry that ran a body or module that changed.
	resume = -1
	l.changed, l.changedMods = map[*ir.FuncDef]bool{}, map[*module]bool{}
	for k, n := range rerun {
		if n >= 0 {
			l.changedMods[l.prog.byPath[l.sums[changed[k]].Path]] = true
			if resume < 0 || n < resume {
				resume = n
			}
		}
	}
	for _, w := range dead {
		if w == nil {
			continue
		}
		for d := range w.Swapped() {
			l.changed[d] = true
			if n := l.in.firstEntry(d); n >= 0 && (resume < 0 || n < resume) {
				resume = n
			}
		}
	}
	if l.pending >= 0 && (resume < 0 || l.pending < resume) {
		resume = l.pending
	}
	if resume >= 0 && !l.in.canResume(resume, l.pending) {
		return nil, -1 // a one-shot run kept no marks
	}
	if l.moved == nil {
		l.moved = map[*ir.Summary]bool{}
	}
	for k, i := range changed {
		old := l.sums[i]
		switch {
		case unrun[k], rerun[k] >= 0:
			l.prog.byPath[old.Path].Sum = sums[i]
			l.sums[i], l.prog.Files[i] = sums[i], sums[i]
			if unrun[k] {
				e.unrun++
			}
			continue
		case dead[k] != nil:
			ir.MergeDead(old, sums[i], dead[k])
			for d := range dead[k].Swapped() {
				l.in.forgetInert(d) // its body is new
			}
			if resume < 0 {
				e.deadBodies++
			}
		default:
			ir.MoveTo(old, sums[i])
		}
		sums[i] = old
		e.cache[old.Path] = old
		l.moved[old] = true
	}
	for s := range e.shifted {
		l.moved[s] = true
	}
	e.shifted = nil
	return l, resume
}

// neverRan reports whether the run never executed s's module. The
// interpreter reaches a file's IR only by running its module (runModule:
// every function, class and statement of the file is created by its top
// level), so such a run read nothing of s but its path, and a fresh run
// with another version of s, the entry modules being the same (relGen),
// would never run it either: it is the same run. Only s's own findings
// (rules per file, suppressions, syntax notes) change.
func (l *lastRun) neverRan(s *ir.Summary) bool {
	m := l.prog.byPath[s.Path]
	return m != nil && m.Sum == s && l.in.neverRan(m)
}

// firstRun is the entry that first ran s's module (its top level), or -1.
// No entry before it read any of s's IR (see neverRan).
func (l *lastRun) firstRun(s *ir.Summary) int {
	m := l.prog.byPath[s.Path]
	if m == nil || m.Sum != s {
		return -1
	}
	return l.in.firstRun(m)
}

// neverCalled reports whether the run never executed d's body.
func (l *lastRun) neverCalled(d *ir.FuncDef) bool { return l.in.firstEntry(d) < 0 }

// callMemoFor returns analyzer code's memo for a report with opts over n
// facts, started afresh when those options changed.
func (l *lastRun) callMemoFor(code string, opts *Options, n int) *callMemo {
	if l.memos == nil {
		l.memos = map[string]*callMemo{}
	}
	key := callMemoKey{opts.JAXVersion, opts.JAXVersionReason, opts.TPUChip}
	m := l.memos[code]
	if m == nil || m.key != key {
		m = &callMemo{key: key}
		l.memos[code] = m
	}
	m.next, m.n = nil, n // made by the first CallMemo: most rules never ask
	return m
}
