package analysis

import (
	"context"
	"slices"

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
// This file, history.go and detached.go are the seam between the
// interpreter and the incremental engine: evaluation records into its
// history (history.go: begin, markCalled, countEval, setAttr, setGlobal,
// startModule), and the engine (check.go, reuse.go) reads and rewinds a
// run only through the methods here.

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
		h.takenBack = in.callsFrom(h.marks[k])
		in.undoTo(k)
	}
	// And the state the library entries start in: the tests took theirs
	// back, so only the configured entry points change it.
	h.replayLib = h.replay != nil && (at.phase >= phaseMains || len(in.opts.EntryPoints) == 0)
	in.restart(ctx, budget)
	in.runFrom(at)
	h.takenBack = nil
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

// callsFrom maps the kernel call records made from mark m on by their
// keys.
func (in *interp) callsFrom(m mark) map[callSiteKey]*kernelCall {
	j := &in.h.journal.calls
	out := make(map[callSiteKey]*kernelCall, len(j.keys)-m.outputs[callsLog])
	for _, k := range j.keys[m.outputs[callsLog]:] {
		out[k] = j.m[k]
	}
	return out
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
		// fewer modules run, but for tests and main blocks, which took
		// back what they ran (their logs say, below).
		k := -1
		for i, mk := range h.marks {
			if mk.at.phase != phaseMains && (mk.at.phase != phaseTests || mk.at.mod < 0) {
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
