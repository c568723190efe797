package analysis

import (
	"maps"
	"slices"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
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
// (deadbody.go). In both a fresh run would take the same steps.
//
// The shape comparison below visits every field of the IR types; a test
// (reuse_test.go) lists those fields so that a field added later cannot be
// forgotten here.

// lastRun is what Engine keeps of its previous successful run.
type lastRun struct {
	optsKey string
	layout  string     // the key of the layout of the program's module names
	relGen  int        // the relevance (entry modules) it was run with
	sums    []*Summary // the analysed summaries, in order
	prog    *Program
	in      *interp
	// files holds the findings of RunFile rules per file, valid while the
	// summary's hash is the one recorded.
	files map[fileRule]fileFindings
	// supps caches each file's parsed suppression comments, by hash too.
	supps, suppsNext map[*Summary]fileSuppressions
	// kernelCalls are the facts last rendered, one per in.order entry;
	// moved lists the summaries moved since, whose facts must be rendered
	// again.
	kernelCalls []*KernelCall
	moved       map[*Summary]bool
	// infos are the hover descriptions of kernelCalls, by index; nil
	// entries of infoOf are to be described again.
	infos  []KernelCallInfo
	infoOf []*KernelCall
	// byFile lists, per summary, the indexes of in.order whose facts
	// refer to it (filesOf), built on first use.
	byFile map[*Summary][]int
	// pending, when not -1, is the entry a cancelled resume was taken back
	// to (its mark dropped, its place in pendingAt): the run must resume
	// from there before its facts stand.
	pending   int
	pendingAt cursor
	// changed and changedMods hold the bodies reuse swapped and the
	// modules whose summary it replaced for the resume to come: the main
	// blocks that ran none of them are replayed (detached.go).
	changed     map[*FuncDef]bool
	changedMods map[*Module]bool
}

type fileSuppressions struct {
	hash [32]byte
	list []*Suppression
}

// suppressions returns s's suppression comments, parsed once per content;
// each call gets fresh copies, since applying them marks them used.
func (l *lastRun) suppressions(s *Summary) []*Suppression {
	if l.supps == nil {
		l.supps = map[*Summary]fileSuppressions{}
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
		l.kernelCalls = l.in.facts()
	} else if len(l.moved) > 0 {
		if l.byFile == nil {
			l.byFile = map[*Summary][]int{}
			for i, kc := range l.in.order {
				for _, s := range l.in.filesOf(kc) {
					l.byFile[s] = append(l.byFile[s], i)
				}
			}
		}
		done := map[int]bool{}
		for s := range l.moved {
			for _, i := range l.byFile[s] {
				if !done[i] {
					done[i] = true
					l.kernelCalls[i] = l.in.fact(l.in.order[i])
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
	s *Summary
}

type fileFindings struct {
	hash  [32]byte
	diags []Diagnostic
	seen  int // the report that last used it
}

// fileFindings returns a's findings in s, from l.files when s did not
// change, and records them there for the next report, stamped with gen.
func (l *lastRun) fileFindings(gen int, p *Pass, s *Summary) []Diagnostic {
	key := fileRule{p.Analyzer, s}
	f, ok := l.files[key]
	if !ok || f.hash != s.Hash {
		f = fileFindings{hash: s.Hash}
		p.report = func(d Diagnostic) { f.diags = append(f.diags, d) }
		p.Analyzer.RunFile(p, s)
	}
	f.seen = gen
	l.files[key] = f
	return f.diags
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

// keep trims the interpreter to what rendering its facts needs, the set
// of functions it called (deadbody.go) and, unless oneShot, what a later
// check needs to resume it (journal.go): the state and the journal.
func (in *interp) keep(oneShot bool) {
	in.active, in.inertPrev, in.stack = nil, nil, nil
	if oneShot {
		in.memo, in.evals, in.assigned, in.instances = nil, nil, nil, nil
		in.journal, in.marks, in.pins, in.mainLogs, in.lib = journal{}, nil, nil, nil, nil
	}
}

// reuse returns the previous run's state when sums differ from the
// summaries it analysed only by edits that keep each file's IR shape,
// after moving the old summaries onto the new text. sums is updated to
// the old summaries, which stand for the new text from then on.
// Summaries already moved onto their new text in place (e.shifted,
// trivia.go) are marked moved too.
//
// resume is -1 when the last run's facts stand as they are; otherwise the
// edits changed bodies the run executed, and the run must be resumed from
// that entry (journal.go) before its facts are rendered.
func (e *Engine) reuse(sums []*Summary, optsKey, layout string, relGen int) (l *lastRun, resume int) {
	l = e.last
	if l == nil || l.optsKey != optsKey || l.layout != layout || l.relGen != relGen || len(l.sums) != len(sums) ||
		l.in.exhausted { // where a run stops depends on the size of the files (stepBudget)
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
	// changed (merged, deadbody.go). Decided for all before any changes.
	dead := make([]*shapeWalk, len(changed)) // for a merge
	unrun := make([]bool, len(changed))
	rerun := make([]int, len(changed)) // the first entry that ran the module, or -1
	for k, i := range changed {
		rerun[k] = -1
		switch {
		case sameShape(l.sums[i], sums[i]):
		case l.neverRan(l.sums[i]):
			unrun[k] = true
		default:
			w, ok := compareDead(l.sums[i], sums[i], l.neverCalled)
			if !ok {
				w, ok = compareBodies(l.sums[i], sums[i], l.neverCalled)
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
	l.changed, l.changedMods = map[*FuncDef]bool{}, map[*Module]bool{}
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
		for d := range w.swaps {
			l.changed[d] = true
			if n := int(l.in.called[d]) - 1; n >= 0 && (resume < 0 || n < resume) {
				resume = n
			}
		}
	}
	if l.pending >= 0 && (resume < 0 || l.pending < resume) {
		resume = l.pending
	}
	if resume > len(l.in.marks) || resume == len(l.in.marks) && resume != l.pending {
		return nil, -1 // a one-shot run kept no marks
	}
	if l.moved == nil {
		l.moved = map[*Summary]bool{}
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
			mergeDead(old, sums[i], dead[k])
			for d := range dead[k].swaps {
				delete(l.in.inertRefs, d) // its body is new (inert.go)
			}
			if resume < 0 {
				e.deadBodies++
			}
		default:
			moveTo(old, sums[i])
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
func (l *lastRun) neverRan(s *Summary) bool {
	m := l.prog.byPath[s.Path]
	if m == nil || m.Sum != s || m.state != 0 {
		return false
	}
	// Run by a main block (detached) or a replayed library entry, whose
	// state the journal does not hold.
	for _, log := range l.in.mainLogs {
		if slices.Contains(log.mods, m) {
			return false
		}
	}
	if l.in.lib != nil {
		for _, e := range l.in.lib.entries {
			if slices.Contains(e.log.mods, m) {
				return false
			}
		}
	}
	return true
}

// firstRun is the entry that first ran s's module (its top level), or -1:
// the first in the journal's order, or a main block or replayed library
// entry that ran it (their state is not in the journal; detached.go). No
// entry before it read any of s's IR (see neverRan).
func (l *lastRun) firstRun(s *Summary) int {
	m := l.prog.byPath[s.Path]
	if m == nil || m.Sum != s {
		return -1
	}
	in, first := l.in, -1
	earlier := func(k int) {
		if k >= 0 && (first < 0 || k < first) {
			first = k
		}
	}
	if p := slices.Index(in.journal.mods, m); p >= 0 {
		// The entry running when it was appended: the last to begin with
		// fewer modules run, but for main blocks, whose marks hold the
		// lengths of the state swapped out.
		k := -1
		for i, mk := range in.marks {
			if mk.at.phase != phaseMains {
				if mk.mods > p {
					break
				}
				k = i
			}
		}
		earlier(k)
	}
	for c, log := range in.mainLogs {
		if slices.Contains(log.mods, m) {
			earlier(slices.IndexFunc(in.marks, func(mk mark) bool { return mk.at == c }))
		}
	}
	if in.lib != nil {
		for _, e := range in.lib.entries {
			if slices.Contains(e.log.mods, m) {
				earlier(e.mark)
			}
		}
	}
	return first
}

// neverCalled reports whether the run never executed d's body.
func (l *lastRun) neverCalled(d *FuncDef) bool { return l.in.called[d] == 0 }

// sameShape reports whether b's IR is a's apart from positions and source text.
func sameShape(a, b *Summary) bool {
	if a.ParseError != "" || b.ParseError != "" || a.UsesPallas != b.UsesPallas ||
		!maps.Equal(a.Imports, b.Imports) || len(a.Refs) != len(b.Refs) ||
		len(a.Defs) != len(b.Defs) || len(a.Classes) != len(b.Classes) {
		return false
	}
	w := &shapeWalk{defs: make(map[*FuncDef]*FuncDef, len(a.Defs)), classes: make(map[*ClassDef]*ClassDef, len(a.Classes)),
		exprs: map[*Expr]*Expr{}}
	for _, r := range a.Refs {
		if r.Call != nil {
			w.exprs[r.Call] = nil // only these pairs are needed
		}
	}
	if !w.stmts(a.Body, b.Body) {
		return false
	}
	for i, d := range a.Defs {
		if w.defs[d] != b.Defs[i] {
			return false
		}
	}
	for i, c := range a.Classes {
		if w.classes[c] != b.Classes[i] {
			return false
		}
	}
	for i, r := range a.Refs {
		q := b.Refs[i]
		if r.Kind != q.Kind || r.Qual != q.Qual || r.Keyword != q.Keyword || w.exprs[r.Call] != q.Call {
			return false
		}
	}
	return true
}

// moveTo gives a (of the same shape as b) b's positions and source.
func moveTo(a, b *Summary) {
	w := &shapeWalk{patch: true}
	w.stmts(a.Body, b.Body)
	for i := range a.Refs {
		a.Refs[i].Span, a.Refs[i].Root = b.Refs[i].Span, b.Refs[i].Root
	}
	a.Src, a.Hash, a.Comments, a.SyntaxErrors, a.mapper = b.Src, b.Hash, b.Comments, b.SyntaxErrors, b.mapper
}

// shapeWalk compares two IRs in step; with patch set (and the shapes
// known equal) it copies the second one's positions onto the first.
type shapeWalk struct {
	patch bool
	// shift, with patch, moves every position by an edit instead (the
	// second IR is then the first: trivia.go).
	shift   *pp.Edit
	defs    map[*FuncDef]*FuncDef
	classes map[*ClassDef]*ClassDef
	exprs   map[*Expr]*Expr
	// dead, when set, reports the functions whose bodies the last run
	// never executed: their bodies may differ (deadbody.go). The walk
	// records them in swaps, and the new IR's reference calls met on the
	// way in calls (new -> old); with patch, swaps lists the bodies to take.
	dead  func(*FuncDef) bool
	swaps map[*FuncDef]*FuncDef
	calls map[*Expr]*Expr
	// changed, when set, reports bodies that differ (compareBodies): they
	// are swapped too.
	changed func(a, b *FuncDef) bool
}

func (w *shapeWalk) span(a *pp.Span, b pp.Span) {
	switch {
	case w.shift != nil:
		*a = w.shift.MapSpan(*a)
	case w.patch:
		*a = b
	}
}

func (w *shapeWalk) expr(a, b *Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Op != b.Op || a.Name != b.Name || len(a.Args) != len(b.Args) || len(a.Kw) != len(b.Kw) {
		return false
	}
	if (a.Const == nil) != (b.Const == nil) || a.Const != nil && *a.Const != *b.Const {
		return false
	}
	if !w.patch {
		if _, ok := w.exprs[a]; ok {
			w.exprs[a] = b
		}
		if _, ok := w.calls[b]; ok {
			w.calls[b] = a
		}
	}
	w.span(&a.Span, b.Span)
	args := w.expr
	if a.Kind == ExBinOp {
		args = w.inert
	}
	if !w.expr(a.X, b.X) || !pairwise(a.Args, b.Args, args) || !w.def(a.Lambda, b.Lambda) {
		return false
	}
	for i := range a.Kw {
		ka, kb := &a.Kw[i], &b.Kw[i]
		if ka.Name != kb.Name || !w.expr(ka.Key, kb.Key) || !w.expr(ka.Value, kb.Value) {
			return false
		}
		w.span(&ka.NameSpan, kb.NameSpan)
	}
	return true
}

func (w *shapeWalk) exprPairs(a, b []*Expr) bool { return pairwise(a, b, w.expr) }

// inert compares two expressions where the interpreter evaluates a
// constant and discards its value: a statement that is only a constant
// (a docstring), an operand of arithmetic (whose result is "not None"
// whatever the operands). There constants of the same kind may differ in
// value (typing in a docstring keeps the fast path); with patch, the new
// value is copied, so that the old IR equals the new one.
func (w *shapeWalk) inert(a, b *Expr) bool {
	if a == nil || b == nil || a.Kind != ExConst || b.Kind != ExConst {
		return w.expr(a, b)
	}
	if a.Const == nil || b.Const == nil || a.Const.Kind != b.Const.Kind || a.Op != b.Op || a.Name != b.Name ||
		a.X != nil || b.X != nil || len(a.Args)+len(b.Args)+len(a.Kw)+len(b.Kw) != 0 || a.Lambda != nil || b.Lambda != nil {
		return w.expr(a, b)
	}
	w.span(&a.Span, b.Span)
	if w.patch && w.shift == nil {
		*a.Const = *b.Const
	}
	return true
}

func (w *shapeWalk) stmts(a, b []*Stmt) bool { return pairwise(a, b, w.stmt) }

// pairwise reports whether a and b have the same length and same(a[i], b[i]) holds for each i.
func pairwise[T any](a, b []T, same func(T, T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (w *shapeWalk) stmt(a, b *Stmt) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Aug != b.Aug || len(a.Items) != len(b.Items) {
		return false
	}
	w.span(&a.Span, b.Span)
	value := w.expr
	if a.Kind == StExpr {
		value = w.inert
	}
	if (a.Main == nil) != (b.Main == nil) {
		return false
	}
	var body bool
	if a.Main != nil {
		// A script's main block is walked (and swapped) as the body of
		// its Main, which holds the same statements.
		body = w.def(a.Main, b.Main)
		a.Body = a.Main.Body
	} else {
		body = w.stmts(a.Body, b.Body)
	}
	if !w.exprPairs(a.Targets, b.Targets) || !value(a.Value, b.Value) || !w.expr(a.Cond, b.Cond) ||
		!body || !w.stmts(a.Else, b.Else) || !w.stmts(a.Finally, b.Finally) ||
		!w.def(a.Def, b.Def) || !w.class(a.Class, b.Class) || !w.imp(a.Import, b.Import) {
		return false
	}
	for i := range a.Items {
		if !w.expr(a.Items[i].Ctx, b.Items[i].Ctx) || !w.expr(a.Items[i].Target, b.Items[i].Target) {
			return false
		}
	}
	return true
}

func (w *shapeWalk) imp(a, b *Import) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.From != b.From || a.Level != b.Level || a.Module != b.Module || a.Star != b.Star || len(a.Names) != len(b.Names) {
		return false
	}
	for i := range a.Names {
		na, nb := &a.Names[i], &b.Names[i]
		if na.Name != nb.Name || na.As != nb.As {
			return false
		}
		w.span(&na.Span, nb.Span)
	}
	return true
}

func (w *shapeWalk) def(a, b *FuncDef) bool {
	if a == nil || b == nil {
		return a == b
	}
	// A body the last run never executed is taken whole from the new IR:
	// nothing of it reached the analysis (deadbody.go).
	dead := w.patch && w.swaps[a] == b || !w.patch && (w.dead != nil && w.dead(a) || w.changed != nil && w.changed(a, b))
	if a.Name != b.Name || a.Qual != b.Qual || a.Lambda != b.Lambda || a.MocksShardMap != b.MocksShardMap && !dead ||
		len(a.Params) != len(b.Params) {
		return false
	}
	if !w.patch {
		w.defs[a] = b
	}
	w.span(&a.Span, b.Span)
	w.span(&a.NameSpan, b.NameSpan)
	for i := range a.Params {
		pa, pb := &a.Params[i], &b.Params[i]
		if pa.Name != pb.Name || pa.Kind != pb.Kind || !w.expr(pa.Default, pb.Default) || !w.expr(pa.Annotation, pb.Annotation) {
			return false
		}
	}
	if !w.exprPairs(a.Decorators, b.Decorators) {
		return false
	}
	if dead {
		if w.patch {
			a.Body, a.MocksShardMap = b.Body, b.MocksShardMap
		} else {
			w.swaps[a] = b
		}
		return true
	}
	return w.stmts(a.Body, b.Body)
}

func (w *shapeWalk) class(a, b *ClassDef) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Name != b.Name || a.Qual != b.Qual {
		return false
	}
	if !w.patch {
		w.classes[a] = b
	}
	w.span(&a.Span, b.Span)
	w.span(&a.NameSpan, b.NameSpan)
	return w.exprPairs(a.Bases, b.Bases) && w.exprPairs(a.Decorators, b.Decorators) && w.stmts(a.Body, b.Body)
}
