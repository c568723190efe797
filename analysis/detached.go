package analysis

import (
	"cmp"
	"maps"
	"path/filepath"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Detached entries and replays. After the module top levels come the
// tests, module by module, the configured entry points, the main blocks
// (`if __name__ == "__main__":` of entry modules: each module run as a
// script), then the library entries.
//
// A test module's tests (runTestModule) run in the state the module top
// levels left (testsStart) and take back what they changed when the
// module's last test ends (undoStateBut), as if the module ran alone
// (`pytest tests/test_b.py`): what test_a.py set on a shared object is
// not what test_b.py sees. Within a module the tests share their state,
// in order, as in one process. Only the widening counters (interp.evals)
// carry on from module to module, as in one pytest run: counting afresh
// per module cost the tests 1.85 to 2 times the steps (tpu-inference,
// sglang-jax), for no finding on the real trees.
//
// A main block never runs on import, and what it does no importer, test
// or other script sees: each runs in the state the module top levels
// left, before any test (testsStart), and takes its own state back when
// done (undoState), keeping only what it reported: the functions it ran
// (called) and its kernel calls. What it binds in its module's scope is
// journaled for that (journaledScope). A module no file imports (by the
// pre-scan's import graph, prune.go: isScript; not a test module, package,
// conftest.py or setup.py) can only run as a script, so it runs like a
// main block, top level included (runScript): a benchmark's top-level
// work is no shared state the tests begin in. Only the modules its
// module-level imports name run in the shared state, in the module phase
// (runImports in driver.go), as for any importing entry. (Where the
// resolver finds an import the pre-scan did not link, the module also
// runs where it is imported; its script entry then finds its top level
// run.) The state the configured entry points added is taken out of the
// interpreter for them (swapOut in resume.go: undone, with what it undid
// kept) and put back after (swapIn), so the library entries start where
// the configured entry points left.
//
// What that buys: a test module or a main block depends only on that
// state, on the widening counts of the bodies it runs and on those
// bodies and the modules it runs first. When a check resumes a run
// (resume.go) at a test or later, that state is the same, so a test
// module or main block that ran none of the changed bodies and modules,
// and finds the same counts, takes the same steps and reports the same:
// its reports, logged when it ran (entryLog), are replayed instead,
// applied as kernelCalled applied them (offer), in the same order, with
// the counts it added. A resume inside a test module starts at its first
// test (resumable): the state of the tests before the edited one was
// taken back. The library entries depend on the state the configured
// entry points left, on the widening counts, on which functions ran
// before them (a function no entry ran is one) and on the bodies they
// run: when those are the same (and the check resumes at a test module,
// with no configured entry points, or later), their logs are replayed as
// a whole too. Editing a function only one test module or script calls
// then costs that module or script, plus the others that call it.
//
// Replayed library entries leave no state in the journal, so a later
// resume inside them runs them all again (dropLogsFrom, resumable).

// entryLog is what one test module, main block or library entry
// reported: the bodies it ran (or counted as run), once each, with the
// widening count of each when the entry first ran it (and, for a test
// module, when it ended), its kernel calls in order, and the inert
// library functions it skipped.
type entryLog struct {
	ran    []*ir.FuncDef
	counts []int32 // interp.evals of ran[i] when it first ran here
	ends   []int32 // a test module's: interp.evals of ran[i] at its end
	seen   map[*ir.FuncDef]bool
	offers []offer
	colls  []*collUse // collectives on unbound names (collective.go)
	smaps  []*smUse   // shard_map applications (smapply.go)
	refs   []*refUse  // eager memory-space refs (eagerref.go)
	inert  int
	// mods are the modules the entry ran first: a main block takes their
	// state back, yet it read their code (lastRun.neverRan).
	mods []*module
}

// add records that d ran, which it had been evaluated n times before.
func (l *entryLog) add(d *ir.FuncDef, n int) {
	if !l.seen[d] {
		l.seen[d] = true
		l.ran = append(l.ran, d)
		l.counts = append(l.counts, int32(n))
	}
}

// sameCounts reports whether every body the entry ran has the widening
// count now that it had when the entry first ran it: what the entry's
// steps depend on besides the state it began in and the bodies.
func (l *entryLog) sameCounts(evals map[*ir.FuncDef]int) bool {
	for i, d := range l.ran {
		if int32(evals[d]) != l.counts[i] {
			return false
		}
	}
	return true
}

// touches reports whether the entry ran one of the bodies in changed or
// first ran one of the modules in mods.
func (l *entryLog) touches(changed map[*ir.FuncDef]bool, mods map[*module]bool) bool {
	for _, d := range l.ran {
		if changed[d] {
			return true
		}
	}
	for _, m := range l.mods {
		if mods[m] {
			return true
		}
	}
	return false
}

// replay applies what the entry reported.
func (in *interp) replayLog(l *entryLog) {
	for _, d := range l.ran {
		in.markCalled(d)
	}
	for i, d := range l.ends {
		for n := l.counts[i]; n < d; n++ {
			in.countEval(l.ran[i])
		}
	}
	for i := range l.offers {
		in.offer(&l.offers[i])
	}
	for _, u := range l.colls {
		in.addColl(u)
	}
	for _, u := range l.smaps {
		in.addSmap(u)
	}
	for _, u := range l.refs {
		in.addRef(u)
	}
	in.inert += l.inert
	in.h.replayed++
}

// replayable returns the log of the main block at c when runMain would
// replay it: the check resumes a run whose state before the tests is the
// same, and the block ran none of the changed bodies and modules.
func (h *history) replayable(c cursor) *entryLog {
	if old := h.mainLogs[c]; old != nil && h.replay != nil && !old.touches(h.replay, h.replayMods) && old.sameCounts(h.journal.evals.m) {
		return old
	}
	return nil
}

// runMain runs the main block d of module m (the entry at c), or replays
// its log (replayable).
func (in *interp) runMain(c cursor, m *module, d *ir.FuncDef) {
	in.runDetached(c, -1, func() { in.mainBody(m, d) })
}

// mainBody runs main block d of module m as an entry, with what it binds
// in the module's scope journaled (journaledScope), to be taken back.
func (in *interp) mainBody(m *module, d *ir.FuncDef) {
	in.entry(m, "module top level of "+filepath.Base(m.Path), ctxPlain, func() {
		in.markCalled(d)
		env := in.globals(m)
		in.journaledScope(env, func() { in.execBody(env, d.Body) })
	})
}

// runScript runs module m, which no file imports, as a script (the entry
// at c): its top level, its main blocks, then, as library entries do, its
// module-level functions and methods that nothing ran, all in the state
// the module top levels left and taking back what they changed, as
// `python script.py` would, which no other module sees. So a body or a
// module that only scripts run first is not first run before the tests:
// an edit there resumes among the detached entries, and the tests that
// ran none of it are replayed (resume.go). Or it replays the entry's last
// log (replayable).
func (in *interp) runScript(c cursor, m *module) {
	in.runDetached(c, -1, func() {
		in.runModule(m)
		env := in.globals(m)
		if env == nil {
			return
		}
		for _, st := range m.Sum.Body {
			if st.Main != nil {
				in.mainBody(m, st.Main)
			}
		}
		if !hasLibraryEntries(m) {
			return
		}
		for _, st := range m.Sum.Body {
			in.runLibraryStmt(c, m, st, 0, false)
		}
	})
}

// runsAsScript reports whether entry module m runs as a script
// (runScript): no file imports it (Options' scripts), and its main block
// runs no test runner (runsTestMain: its tests are run as a test module's).
func (in *interp) runsAsScript(m *module) bool {
	return in.scripts[m.Path] && in.entries[m.Path] && m.Sum != nil && !runsTestMain(m.Sum)
}

// testModule is the cursor of the mark that begins test module mi's
// tests: a resume inside them starts there (resumable).
func testModule(mi int) cursor { return cursor{phaseTests, mi, -1, 0} }

// runTestModule runs the tests of module mi, m, detached: in the state
// the module top levels left (testsStart) and taking back what they
// changed at the end, logged like a main block's (the tests of one module
// share their state: pytest and unittest run them in one process, in
// order). When the check resumes at a test or later and the module's
// tests ran none of the changed bodies and modules, its log is replayed.
// The widening counters stay: the next module's tests count on, as one
// pytest run would (a fresh count per module cost the tests twice the
// steps); what the module's tests counted is logged, to be replayed, and
// what they found is read back before a replay (sameCounts).
func (in *interp) runTestModule(mi int, m *module) {
	in.runDetached(testModule(mi), evalsLog, func() { in.runTests(mi, m) })
}

// runDetached runs the detached entry at c (run), logging what it
// reports, then takes back the state it changed but for the log of
// journal.state() at index keep (evalsLog, or -1); or it replays the
// entry's last log (replayable).
func (in *interp) runDetached(c cursor, keep int, run func()) {
	at := len(in.h.marks)
	in.begin(c)
	if old := in.h.replayable(c); old != nil {
		in.replayLog(old)
		return
	}
	log := &entryLog{seen: map[*ir.FuncDef]bool{}}
	in.h.log = log
	run()
	in.h.log, log.seen = nil, nil
	in.undoStateBut(in.h.marks[at], keep)
	if keep == evalsLog {
		log.ends = make([]int32, len(log.ran))
		for i, d := range log.ran {
			log.ends[i] = int32(in.evals[d])
		}
	}
	if in.h.mainLogs == nil {
		in.h.mainLogs = map[cursor]*entryLog{}
	}
	in.h.mainLogs[c] = log
}

// testsStart is the cursor of the mark that begins the tests (mod -1: no
// test has it): the state main blocks run in.
var testsStart = cursor{phase: phaseTests, mod: -1}

// mainsFrom calls f for each main block of an entry module, and each
// script (d nil: runScript, at statement -1), from c on, in order, until
// f returns false.
func (in *interp) mainsFrom(c cursor, f func(c cursor, m *module, d *ir.FuncDef) bool) {
	for i := c.mod; i < len(in.prog.Modules); i++ {
		m := in.prog.Modules[i]
		stmt, _ := c.at(i)
		if in.runsAsScript(m) {
			// A script has no cursor inside: c is its own (-1), or the
			// phase's start (module 0, statement 0), or before it.
			if stmt <= 0 && !f(cursor{phaseMains, i, -1, 0}, m, nil) {
				return
			}
			continue
		}
		if m.Sum == nil || in.globals(m) == nil || !in.entries[m.Path] {
			continue
		}
		for j := max(stmt, 0); j < len(m.Sum.Body); j++ {
			if d := m.Sum.Body[j].Main; d != nil && !f(cursor{phaseMains, i, j, 0}, m, d) {
				return
			}
		}
	}
}

// runMainsFrom runs the main blocks (the modules run as scripts) from c
// on, in the state the module top levels left.
func (in *interp) runMainsFrom(c cursor) {
	if in.h.testsStart < 0 {
		return // a run cut short before its tests
	}
	all := true // replays read no state: then nothing is swapped
	in.mainsFrom(c, func(c cursor, _ *module, _ *ir.FuncDef) bool {
		all = in.h.replayable(c) != nil
		return all
	})
	var sw *swapped
	if !all {
		sw = in.swapOut(in.h.marks[in.h.testsStart])
	}
	in.mainsFrom(c, func(c cursor, m *module, d *ir.FuncDef) bool {
		if d == nil {
			in.runScript(c, m)
		} else {
			in.runMain(c, m, d)
		}
		return true
	})
	if sw != nil {
		in.swapIn(sw)
	}
}

// libraryLog is what the library entries reported, each under its mark,
// and which of the functions they could be had run when they began.
type libraryLog struct {
	ranBefore map[*ir.FuncDef]bool
	// evalsBefore are the widening counts they began with (the tests'
	// carry on from module to module).
	evalsBefore map[*ir.FuncDef]int
	entries     []libEntry
	// complete: the entries ran to the end (none cut short or dropped).
	complete bool
}

type libEntry struct {
	mark int
	at   cursor
	log  *entryLog
}

// libraryStart is the cursor of the mark that begins the library entries
// (mod -1: no library entry has it).
var libraryStart = cursor{phase: phaseLibrary, mod: -1}

// libraryFrom runs the library entries from c on, logging what each
// reports; from their start, it replays the last run's logs instead when
// the check resumes the run at a main block or later, the same functions
// ran before them and none of the bodies they ran changed.
func (in *interp) libraryFrom(c cursor) {
	if c == libraryStart {
		ran := in.candidatesRun()
		replay := in.h.replayLib && in.h.lib != nil && in.h.lib.complete && maps.Equal(ran, in.h.lib.ranBefore) && maps.Equal(in.evals, in.h.lib.evalsBefore)
		for i := 0; replay && i < len(in.h.lib.entries); i++ {
			replay = !in.h.lib.entries[i].log.touches(in.h.replay, in.h.replayMods)
		}
		in.h.libStart = len(in.h.marks)
		in.begin(libraryStart)
		if replay {
			for i := range in.h.lib.entries {
				e := &in.h.lib.entries[i]
				e.mark = len(in.h.marks)
				in.begin(e.at)
				in.replayLog(e.log)
			}
			in.h.libReplayed = true
			return
		}
		in.h.lib, in.h.libReplayed = &libraryLog{ranBefore: ran, evalsBefore: maps.Clone(in.evals)}, false
		c = cursor{phase: phaseLibrary}
	}
	in.h.logLib = in.h.lib != nil
	in.runLibraryEntries(c)
	if in.h.log != nil {
		in.h.log.seen = nil
	}
	in.h.logLib, in.h.log = false, nil
	if in.h.lib != nil {
		in.h.lib.complete = !in.stopped
	}
}

// candidatesRun lists the functions runLibraryEntries may make library
// entries (module-level functions and methods of the modules it visits)
// that have run: the part of called it reads.
func (in *interp) candidatesRun() map[*ir.FuncDef]bool {
	out := map[*ir.FuncDef]bool{}
	add := func(d *ir.FuncDef) {
		if in.called[d] != 0 {
			out[d] = true
		}
	}
	for _, m := range in.prog.Modules {
		if m.Sum == nil || in.globals(m) == nil || !m.Sum.UsesPallas && !m.Sum.NamesSPMD {
			continue
		}
		for _, st := range m.Sum.Body {
			switch st.Kind {
			case ir.StDef:
				add(st.Def)
			case ir.StClass:
				for _, cs := range st.Class.Body {
					if cs.Kind == ir.StDef {
						add(cs.Def)
					}
				}
			}
		}
	}
	return out
}

// dropMainLogsFrom forgets the logs of the main blocks at or after c.
func (h *history) dropMainLogsFrom(c cursor) {
	for k := range h.mainLogs {
		if !k.before(c) {
			delete(h.mainLogs, k)
		}
	}
}

// before reports whether the entry at c runs before the one at d.
func (c cursor) before(d cursor) bool {
	return cmp.Or(cmp.Compare(c.phase, d.phase), cmp.Compare(c.mod, d.mod), cmp.Compare(c.stmt, d.stmt), cmp.Compare(c.method, d.method)) < 0
}

// dropLogsFrom forgets the library entries' logs from mark k on, as
// undoTo(k) takes them back.
func (h *history) dropLogsFrom(k int) {
	if k <= h.libStart {
		h.libStart = -1 // the logs stay, for a replay
		return
	}
	if h.lib != nil {
		n := 0
		for n < len(h.lib.entries) && h.lib.entries[n].mark < k {
			n++
		}
		h.lib.entries, h.lib.complete = h.lib.entries[:n], false
	}
}

// resumable is the entry a run can be resumed at in place of entry k: k,
// or the start of the library entries for one of them when they were
// replayed (the journal holds none of their state).
func (h *history) resumable(k int) int {
	if h.libReplayed && h.libStart >= 0 && k > h.libStart && k < len(h.marks) {
		return h.libStart
	}
	// A test module's tests took back what they changed, so a test inside
	// one cannot be resumed: its module's tests run again, from its mark.
	if k < len(h.marks) {
		if at := h.marks[k].at; at.phase == phaseTests && at.mod >= 0 && at.stmt >= 0 {
			for k > 0 && h.marks[k].at != testModule(at.mod) {
				k--
			}
		}
	}
	return k
}
