package analysis

import (
	"slices"
	"unsafe"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// A run's history: the marks where its entries began, the journal of what
// they changed (journal.go), the logs of its detached entries
// (detached.go), and the methods through which evaluation records into
// them and a resume takes them back (resume.go).

// history is what the interpreter keeps of a run so that a later check
// can resume it and replay its detached entries (detached.go).
type history struct {
	journal journal
	// marks holds the state when each entry began; entryNo is the number
	// of the entry running (from 1).
	marks   []mark
	entryNo int32
	// testsStart and libStart are the marks where the tests and the
	// library entries begin (-1 before).
	testsStart, libStart int
	// log collects what the running main block or library entry reports
	// (logLib: the library entries' are kept in lib), mainLogs keeps the
	// main blocks' logs; libReplayed says the library entries were
	// replayed, so the journal holds none of their state.
	log         *entryLog
	logLib      bool
	mainLogs    map[cursor]*entryLog
	lib         *libraryLog
	libReplayed bool
	// While a check resumes the run at a test or later, replay and
	// replayMods hold the changed bodies and modules, and replayLib says
	// it resumed at a main block or later; replayed counts the entries
	// replayed.
	replay     map[*ir.FuncDef]bool
	replayMods map[*module]bool
	replayLib  bool
	replayed   int
	// takenBack holds, while a check resumes the run, the kernel call
	// records the resume took back, for replayed offers to make again
	// (offer).
	takenBack map[callSiteKey]*kernelCall
}

// mark is the state of a run when one entry began: the length of each
// journal log, and of what is not journalled but only appended to.
type mark struct {
	at                         cursor
	state                      [nState]int
	outputs                    [nOutputs]int
	order, budget, inert, pins int
	colls                      int // len(interp.collOrder)
	smaps                      int // len(interp.smapOrder)
	refs                       int // len(interp.refOrder)
}

// modsLog and evalsLog are the indices of journal.mods and journal.evals
// in journal.state().
const modsLog, evalsLog = 7, 4

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

// newHistory starts the journal of in's maps.
func (in *interp) newHistory() {
	h := &in.h
	h.testsStart, h.libStart = -1, -1
	j := &h.journal
	j.memo.m, j.assigned.m, j.instances.m, j.effects.m = in.memo, in.assigned, in.instances, in.effects
	j.evals.m, j.called.m, j.calls.m, j.colls.m, j.smaps.m = in.evals, in.called, in.calls, in.colls, in.smaps
	j.refs.m, j.syms.m = in.refs, in.syms
}

// begin starts the entry at c: marks the state, numbers the entry.
func (in *interp) begin(c cursor) {
	h := &in.h
	m := mark{at: c, order: len(in.order), budget: in.budget, inert: in.inert, pins: len(in.pins), colls: len(in.collOrder), smaps: len(in.smapOrder), refs: len(in.refOrder)}
	for i, l := range h.journal.state() {
		m.state[i] = l.len()
	}
	for i, l := range h.journal.outputs() {
		m.outputs[i] = l.len()
	}
	h.marks = append(h.marks, m)
	h.entryNo = int32(len(h.marks))
	if h.logLib {
		if h.log != nil {
			h.log.seen = nil // only the running entry adds to its log
		}
		h.log = &entryLog{seen: map[*ir.FuncDef]bool{}}
		h.lib.entries = append(h.lib.entries, libEntry{mark: len(h.marks) - 1, at: c, log: h.log})
	}
}

// markCalled records that def's body ran (or counts as run) in the
// current entry.
func (in *interp) markCalled(d *ir.FuncDef) {
	if in.h.log != nil {
		in.h.log.add(d, in.evals[d])
	}
	if in.called[d] == 0 {
		in.h.journal.called.add(d, in.h.entryNo)
	}
}

func (in *interp) countEval(d *ir.FuncDef) { in.h.journal.evals.inc(d) }

// setAttr sets an attribute of an instance or class.
func (in *interp) setAttr(m map[string]value, name string, v value) {
	in.h.journal.attrs.set(mapPlace[string, value](m), name, v)
}

// setGlobal binds name in another module's scope (`mod.X = v`).
func (in *interp) setGlobal(env *scope, name string, v value) {
	in.h.journal.envs.set(rawScope{env}, name, v)
}

// journaledScope runs fn with the bindings of module scope env journaled
// (scope.log): a main block binds names in its module's scope, which
// outlives the block, and what it binds must be taken back with the rest
// of its state (detached.go), or the next main block or script would see
// it: `python a.py` never runs b.py's main block.
func (in *interp) journaledScope(env *scope, fn func()) {
	saved := env.log
	env.log = &in.h.journal.envs
	defer func() { env.log = saved }()
	fn()
}

// startModule marks module m as running, with a fresh scope.
func (in *interp) startModule(m *module) *scope {
	env := newEnv(nil, m)
	in.h.journal.mods.set(modTable(in.mods), m.id, modRun{state: modRunning, env: env})
	if in.h.log != nil {
		in.h.log.mods = append(in.h.log.mods, m)
	}
	return env
}

// undoTo takes the state back to the start of entry k (0-based) and drops
// the marks from there on.
func (in *interp) undoTo(k int) {
	h := &in.h
	m := h.marks[k]
	switch {
	case m.at.phase != phaseMains:
		in.undoState(m)
	case h.libStart >= 0 && h.libStart < len(h.marks):
		// A main block's mark holds the lengths of the state swapped out,
		// and what main blocks changed they took back (detached.go): the
		// state to take back is the library entries', to where they began.
		in.undoState(h.marks[h.libStart])
	}
	in.undoOutputs(m)
	h.marks = h.marks[:k]
	h.entryNo = int32(k)
	h.dropLogsFrom(k)
	if k <= h.testsStart {
		h.testsStart = -1
	}
}

// undoState takes back, to mark m, what the evaluation reads (the memo,
// objects, scopes, counters, the step count), leaving what it reported
// (called, kernel calls and their contexts) in place: the end of a
// detached entry (detached.go).
func (in *interp) undoState(m mark) { in.undoStateBut(m, -1) }

// undoStateBut is undoState but for the log at index keep of
// journal.state() (evalsLog: a test module's).
func (in *interp) undoStateBut(m mark, keep int) {
	for i, l := range in.h.journal.state() {
		if i != keep {
			l.undoTo(m.state[i])
		}
	}
	in.pins = truncate(in.pins, m.pins)
	in.budget = m.budget
}

// undoOutputs takes back, to mark m, what the evaluation reported.
func (in *interp) undoOutputs(m mark) {
	for i, l := range in.h.journal.outputs() {
		l.undoTo(m.outputs[i])
	}
	in.order = truncate(in.order, m.order)
	in.collOrder = truncate(in.collOrder, m.colls)
	in.smapOrder = truncate(in.smapOrder, m.smaps)
	in.refOrder = truncate(in.refOrder, m.refs)
	in.inert = m.inert
}

// swapped is the state the entries after a mark added, taken out of the
// interpreter (swapOut) to be put back (swapIn).
type swapped struct {
	puts   [nState]func()
	pins   []unsafe.Pointer
	budget int
}

// swapOut takes the state back to mark m as undoState does, keeping what
// it takes back for swapIn.
func (in *interp) swapOut(m mark) *swapped {
	s := &swapped{budget: in.budget, pins: slices.Clone(in.pins[m.pins:])}
	for i, l := range in.h.journal.state() {
		s.puts[i] = l.takeFrom(m.state[i])
	}
	in.pins = truncate(in.pins, m.pins)
	in.budget = m.budget
	return s
}

// swapIn puts back what swapOut took out, in the order it was recorded.
func (in *interp) swapIn(s *swapped) {
	for _, put := range s.puts {
		put()
	}
	in.pins = append(in.pins, s.pins...)
	in.budget = s.budget
}
