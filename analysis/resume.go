package analysis

import (
	"context"
	"slices"
	"unsafe"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Resuming a run. A run evaluates entries in a fixed order (runFrom:
// module top levels, tests, configured entry points, main blocks, library
// functions), each in the state the ones before it left (main blocks: the
// state the module top levels left; detached.go). An edit inside the
// bodies of functions leaves every entry before the first one that
// executed such a body (firstEntry) taking the same steps: what it read is
// the same. So the run can be taken back to the state in which that entry
// began and continue from there, with the new bodies: what a fresh run
// would do after the same first entries. reuse.go decides when
// (CompareBodies swaps the changed bodies in, as ir/deadbody.go does for
// bodies that never ran) and calls resume.
//
// Taking it back: the interpreter records every change to state that
// outlives the entry making it in the journal (journal.go); a mark at the
// start of each entry says how long each of its logs was then (and the
// length of in.order, of in.pins, the step count).
//
// This file and detached.go are the seam between the interpreter and the
// incremental engine: evaluation records into history through the methods
// below (begin, markCalled, countEval, setAttr, setGlobal, startModule),
// and the engine (check.go, reuse.go) reads and rewinds a run only
// through the methods here.

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
}

// mark is the state of a run when one entry began: the length of each
// journal log, and of what is not journalled but only appended to.
type mark struct {
	at                         cursor
	state                      [nState]int
	outputs                    [nOutputs]int
	order, budget, inert, pins int
}

// modsLog is the index of journal.mods in journal.state().
const modsLog = 7

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
	j.evals.m, j.called.m, j.calls.m = in.evals, in.called, in.calls
}

// begin starts the entry at c: marks the state, numbers the entry.
func (in *interp) begin(c cursor) {
	h := &in.h
	m := mark{at: c, order: len(in.order), budget: in.budget, inert: in.inert, pins: len(in.pins)}
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
		in.h.log.add(d)
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
func (in *interp) setGlobal(env *scope, name string, v value) { in.h.journal.envs.set(env, name, v) }

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
func (in *interp) undoState(m mark) {
	for i, l := range in.h.journal.state() {
		l.undoTo(m.state[i])
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

// resumePoint is where a resume starts, or where a cancelled one was
// taken back to: entry k (0-based), which begins at cursor at.
type resumePoint struct {
	k  int
	at cursor
}

// resume takes the run back to the start of entry from.k (from.at is
// where that entry begins when the run has been taken back to it already:
// from.k is the number of marks) and runs the entries from there, with
// the summaries as they are now, in ctx and with the step budget budget.
// changed and changedMods are the bodies and modules the edit changed:
// the detached entries that ran none of them are replayed (detached.go).
// It returns the number of entries replayed; when ctx ends the run, it is
// taken back to the entry it resumed at again, returned in pending, for
// the next resume to start from.
func (in *interp) resume(ctx context.Context, budget int, from resumePoint, changed map[*ir.FuncDef]bool, changedMods map[*module]bool) (replayed int, pending resumePoint, err error) {
	h := &in.h
	k := h.resumable(from.k)
	if h.testsStart >= 0 && k >= h.testsStart {
		// The state main blocks start in is the same (detached.go).
		h.replay, h.replayMods = changed, changedMods
	}
	at := from.at
	if k < len(h.marks) {
		at = h.marks[k].at
		in.undoTo(k)
	}
	// And the state the library entries start in.
	h.replayLib = h.replay != nil && at.phase >= phaseMains
	in.restart(ctx, budget)
	in.runFrom(at)
	replayed = h.replayed
	h.replay, h.replayMods, h.replayLib, h.replayed = nil, nil, false, 0
	in.keep(false)
	if err := ctx.Err(); err != nil {
		in.undoTo(k)
		// An entry from k on may have left a partial log, and the next
		// resume runs from k for edits the logs do not know: those run
		// again. (The logs before k stay: they say which modules main
		// blocks ran, for neverRan.)
		h.dropMainLogsFrom(at)
		if h.libStart < 0 {
			h.lib = nil
		}
		return replayed, resumePoint{k, at}, err
	}
	return replayed, resumePoint{}, nil
}

// canResume reports whether the run can resume at entry k: it kept its
// marks (not one-shot), and k is one of them, or pending, a cancelled
// resume's point.
func (in *interp) canResume(k, pending int) bool {
	n := len(in.h.marks)
	return k < n || k == n && k == pending
}

// keep trims the interpreter to what rendering its facts needs, the set
// of functions it called (ir/deadbody.go) and, unless oneShot, what a later
// check needs to resume it: the state and its history.
func (in *interp) keep(oneShot bool) {
	in.active, in.inertPrev, in.stack = nil, nil, nil
	if oneShot {
		in.memo, in.evals, in.assigned, in.instances = nil, nil, nil, nil
		in.pins = nil
		in.h = history{testsStart: in.h.testsStart, libStart: in.h.libStart, libReplayed: in.h.libReplayed}
	}
}

// firstEntry is the entry (0-based) that first ran def's body, or -1.
func (in *interp) firstEntry(def *ir.FuncDef) int { return int(in.called[def]) - 1 }

// neverRan reports whether the run never executed module m's top level:
// not in the journal, nor in a main block or a replayed library entry,
// whose state the journal does not hold.
func (in *interp) neverRan(m *module) bool {
	if in.mods[m.id].state != modFresh {
		return false
	}
	for _, log := range in.h.mainLogs {
		if slices.Contains(log.mods, m) {
			return false
		}
	}
	if in.h.lib != nil {
		for _, e := range in.h.lib.entries {
			if slices.Contains(e.log.mods, m) {
				return false
			}
		}
	}
	return true
}

// firstRun is the entry that first ran module m's top level, or -1: the
// first in the journal's order, or a main block or replayed library entry
// that ran it (their state is not in the journal; detached.go).
func (in *interp) firstRun(m *module) int {
	h, first := &in.h, -1
	earlier := func(k int) {
		if k >= 0 && (first < 0 || k < first) {
			first = k
		}
	}
	if p := slices.IndexFunc(h.journal.mods.recs, func(r setRecord[int, modRun]) bool { return r.key == m.id }); p >= 0 {
		// The entry running when it was recorded: the last to begin with
		// fewer modules run, but for main blocks, whose marks hold the
		// lengths of the state swapped out.
		k := -1
		for i, mk := range h.marks {
			if mk.at.phase != phaseMains {
				if mk.state[modsLog] > p {
					break
				}
				k = i
			}
		}
		earlier(k)
	}
	for c, log := range h.mainLogs {
		if slices.Contains(log.mods, m) {
			earlier(slices.IndexFunc(h.marks, func(mk mark) bool { return mk.at == c }))
		}
	}
	if h.lib != nil {
		for _, e := range h.lib.entries {
			if slices.Contains(e.log.mods, m) {
				earlier(e.mark)
			}
		}
	}
	return first
}
