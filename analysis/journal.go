package analysis

import "github.com/pallas-ls/pallas-ls/lowering"

// The journal and resuming a run. A run evaluates entries in a fixed order
// (runFrom: module top levels, tests, configured entry points, main
// blocks, library functions), each in the state the ones before it left
// (main blocks: the state the configured entry points left; detached.go). An edit inside
// the bodies of functions leaves every entry before the first one that
// executed such a body (interp.called keeps each function's first entry)
// taking the same steps: what it read is the same. So the run can be
// taken back to the state in which that entry began and continue from
// there, with the new bodies: what a fresh run would do after the same
// first entries. reuse.go decides when (compareBodies swaps the changed
// bodies in, as deadbody.go does for bodies that never ran); resume in
// check.go runs it.
//
// Taking it back: the interpreter records here every change to state that
// outlives the entry making it, with what to restore; a mark at the start
// of each entry says how long each record list was then (and the length
// of in.order, of in.pins, the step count). Lists, one per kind of state
// (a location only ever changes through one kind, so each list is undone
// last-first on its own):
//   - memo, called, evals, instances, calls (kernel call records),
//     effects: keys added to the interpreter's maps (evals: one count
//     added per record); assigned too, a cache keyed by statements, which
//     would otherwise keep the IR of every replaced body alive;
//   - attrs: an attribute of an instance or class set, with the old value;
//   - envs: a binding of a module scope set from another module
//     (`mod.X = v`), with the old value;
//   - mods: modules first run (their scope is dropped, to run again);
//   - reaches: a kernel call's context record replaced or added.
//
// Objects created after the mark are unreachable once it is restored, so
// changes to them need no undoing; recording them too keeps the rule
// simple: one append per change, small next to the evaluation making it.

type journal struct {
	assigned  []*Stmt // a cache, but keyed by IR the next resume may replace
	memo      []string
	called    []*FuncDef
	evals     []*FuncDef
	instances []instKey
	calls     []callSiteKey
	effects   []*kernelDecl
	attrs     []attrUndo
	envs      []envUndo
	mods      []*Module
	reaches   []reachUndo
}

type attrUndo struct {
	m    map[string]Value
	name string
	old  Value
	had  bool
}

type envUndo struct {
	env  *Env
	name string
	old  Value
	had  bool
}

type reachUndo struct {
	kc    *kernelCall
	kind  lowering.ContextKind
	old   *reachState
	had   bool
	order int // len(kc.order) before
}

// mark is the state of a run when one entry began.
type mark struct {
	at                                                                cursor
	memo, called, evals, instances, calls, effects, attrs, envs, mods int
	reaches, order, budget, inert, pins, assigned                     int
}

// cursor is an entry's place in analyze's loops: the phase, the module
// (or configured entry point), the statement of its body and the method
// of a class statement.
type cursor struct{ phase, mod, stmt, method int }

const (
	phaseModules = iota
	phaseTests
	phaseConfigured
	phaseMains
	phaseLibrary
	phaseDone
)

// begin starts the entry at c: marks the state, numbers the entry.
func (in *interp) begin(c cursor) {
	j := &in.journal
	in.marks = append(in.marks, mark{at: c,
		memo: len(j.memo), called: len(j.called), evals: len(j.evals), instances: len(j.instances),
		calls: len(j.calls), effects: len(j.effects), attrs: len(j.attrs), envs: len(j.envs), mods: len(j.mods),
		reaches: len(j.reaches), order: len(in.order), budget: in.budget, inert: in.inert, pins: len(in.pins),
		assigned: len(j.assigned)})
	in.entryNo = int32(len(in.marks))
	if in.logLib {
		if in.log != nil {
			in.log.seen = nil // only the running entry adds to its log
		}
		in.log = &entryLog{seen: map[*FuncDef]bool{}}
		in.lib.entries = append(in.lib.entries, libEntry{mark: len(in.marks) - 1, at: c, log: in.log})
	}
}

// undoTo takes the state back to the start of entry k (0-based) and drops
// the marks from there on.
func (in *interp) undoTo(k int) {
	m := in.marks[k]
	switch {
	case m.at.phase != phaseMains:
		in.undoState(m)
	case in.libStart >= 0 && in.libStart < len(in.marks):
		// A main block's mark holds the lengths of the state swapped out,
		// and what main blocks changed they took back (detached.go): the
		// state to take back is the library entries', to where they began.
		in.undoState(in.marks[in.libStart])
	}
	in.undoOutputs(m)
	in.marks = in.marks[:k]
	in.entryNo = int32(k)
	in.dropLogsFrom(k)
	if k <= in.testsStart {
		in.testsStart = -1
	}
}

// undoState takes back, to mark m, what the evaluation reads (the memo,
// objects, scopes, counters, the step count), leaving what it reported
// (called, kernel calls and their contexts) in place: the end of a
// detached entry (driver.go).
func (in *interp) undoState(m mark) {
	j := &in.journal
	for i := len(j.memo) - 1; i >= m.memo; i-- {
		delete(in.memo, j.memo[i])
	}
	for i := len(j.assigned) - 1; i >= m.assigned; i-- {
		delete(in.assigned, j.assigned[i])
	}
	for i := len(j.evals) - 1; i >= m.evals; i-- {
		if d := j.evals[i]; in.evals[d] <= 1 {
			delete(in.evals, d)
		} else {
			in.evals[d]--
		}
	}
	for i := len(j.instances) - 1; i >= m.instances; i-- {
		delete(in.instances, j.instances[i])
	}
	for i := len(j.effects) - 1; i >= m.effects; i-- {
		delete(in.effects, j.effects[i])
	}
	for i := len(j.attrs) - 1; i >= m.attrs; i-- {
		if u := j.attrs[i]; u.had {
			u.m[u.name] = u.old
		} else {
			delete(u.m, u.name)
		}
	}
	for i := len(j.envs) - 1; i >= m.envs; i-- {
		if u := j.envs[i]; u.had {
			u.env.set(u.name, u.old)
		} else {
			u.env.unset(u.name)
		}
	}
	for i := len(j.mods) - 1; i >= m.mods; i-- {
		in.mods[j.mods[i].id] = modRun{}
	}
	j.memo, j.assigned, j.evals = truncate(j.memo, m.memo), truncate(j.assigned, m.assigned), truncate(j.evals, m.evals)
	j.instances, j.effects = truncate(j.instances, m.instances), truncate(j.effects, m.effects)
	j.attrs, j.envs, j.mods = truncate(j.attrs, m.attrs), truncate(j.envs, m.envs), truncate(j.mods, m.mods)
	in.pins = truncate(in.pins, m.pins)
	in.budget = m.budget
}

// undoOutputs takes back, to mark m, what the evaluation reported.
func (in *interp) undoOutputs(m mark) {
	j := &in.journal
	for i := len(j.called) - 1; i >= m.called; i-- {
		delete(in.called, j.called[i])
	}
	for i := len(j.calls) - 1; i >= m.calls; i-- {
		delete(in.calls, j.calls[i])
	}
	for i := len(j.reaches) - 1; i >= m.reaches; i-- {
		u := j.reaches[i]
		if u.had {
			u.kc.reaches[u.kind] = u.old
		} else {
			delete(u.kc.reaches, u.kind)
		}
		u.kc.order = u.kc.order[:u.order]
	}
	j.called, j.calls, j.reaches = truncate(j.called, m.called), truncate(j.calls, m.calls), truncate(j.reaches, m.reaches)
	in.order = truncate(in.order, m.order)
	in.inert = m.inert
}

// truncate cuts s to n elements, clearing the rest so that what they
// point to can be collected.
func truncate[T any](s []T, n int) []T {
	if n >= len(s) {
		return s
	}
	clear(s[n:])
	return s[:n]
}

// markCalled records that def's body ran (or counts as run) in the
// current entry.
func (in *interp) markCalled(d *FuncDef) {
	if in.log != nil {
		in.log.add(d)
	}
	if in.called[d] == 0 {
		in.called[d] = in.entryNo
		in.journal.called = append(in.journal.called, d)
	}
}

func (in *interp) countEval(d *FuncDef) {
	in.evals[d]++
	in.journal.evals = append(in.journal.evals, d)
}

// setAttr sets an attribute of an instance or class.
func (in *interp) setAttr(m map[string]Value, name string, v Value) {
	old, had := m[name]
	in.journal.attrs = append(in.journal.attrs, attrUndo{m: m, name: name, old: old, had: had})
	m[name] = v
}
