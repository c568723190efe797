package analysis

import (
	"cmp"
	"maps"
	"path/filepath"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Detached entries and replays. After the module top levels, the tests
// and the configured entry points come the main blocks (`if __name__ ==
// "__main__":` of entry modules: each module run as a script), then the
// library entries. A main block never runs on import, and what it does no
// importer, test or other script sees: each runs in the state the module
// top levels left, before any test (testsStart), and takes its own state
// back when done (undoState), keeping only what it reported: the
// functions it ran (called) and its kernel calls. The state the tests and
// configured entry points added is taken out of the interpreter for them
// (swapOut in resume.go: undone, with what it undid kept) and put back
// after (swapIn), so the library entries start where the configured entry
// points left.
//
// What that buys: a main block depends only on that state and on the
// bodies and modules it runs. When a check resumes a run (resume.go) at
// a test or later, that state is the same, so a main block that ran none
// of the changed bodies and modules takes the same steps and reports the
// same: its reports, logged when it ran (entryLog), are replayed instead,
// applied as kernelCalled applied them (offer), in the same order. The
// library entries depend on the state the configured entry points left,
// on which functions ran before them (a function no entry ran is one) and
// on the bodies they run: when the check resumes at a main block or later
// and those are the same, their logs are replayed as a whole too. Editing
// a function only one script calls then costs that script; editing one a
// test calls costs the tests from there on, not the scripts.
//
// Replayed library entries leave no state in the journal, so a later
// resume inside them runs them all again (dropLogsFrom, resumable).

// entryLog is what one main block or library entry reported: the bodies
// it ran (or counted as run), once each, its kernel calls in order, and
// the inert library functions it skipped.
type entryLog struct {
	ran    []*ir.FuncDef
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

func (l *entryLog) add(d *ir.FuncDef) {
	if !l.seen[d] {
		l.seen[d] = true
		l.ran = append(l.ran, d)
	}
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
	if old := h.mainLogs[c]; old != nil && h.replay != nil && !old.touches(h.replay, h.replayMods) {
		return old
	}
	return nil
}

// runMain runs the main block d of module m (the entry at c), or replays
// its log (replayable).
func (in *interp) runMain(c cursor, m *module, d *ir.FuncDef) {
	at := len(in.h.marks)
	in.begin(c)
	if old := in.h.replayable(c); old != nil {
		in.replayLog(old)
		return
	}
	log := &entryLog{seen: map[*ir.FuncDef]bool{}}
	in.h.log = log
	in.entry(m, "module top level of "+filepath.Base(m.Path), ctxPlain, func() {
		in.markCalled(d)
		in.execBody(in.globals(m), d.Body)
	})
	in.h.log, log.seen = nil, nil
	in.undoState(in.h.marks[at])
	if in.h.mainLogs == nil {
		in.h.mainLogs = map[cursor]*entryLog{}
	}
	in.h.mainLogs[c] = log
}

// testsStart is the cursor of the mark that begins the tests (mod -1: no
// test has it): the state main blocks run in.
var testsStart = cursor{phase: phaseTests, mod: -1}

// mainsFrom calls f for each main block of an entry module from c on, in
// order, until f returns false.
func (in *interp) mainsFrom(c cursor, f func(c cursor, m *module, d *ir.FuncDef) bool) {
	for i := c.mod; i < len(in.prog.Modules); i++ {
		m := in.prog.Modules[i]
		if m.Sum == nil || in.globals(m) == nil || !in.entries[m.Path] {
			continue
		}
		stmt, _ := c.at(i)
		for j := stmt; j < len(m.Sum.Body); j++ {
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
		in.runMain(c, m, d)
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
	entries   []libEntry
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
		replay := in.h.replayLib && in.h.lib != nil && in.h.lib.complete && maps.Equal(ran, in.h.lib.ranBefore)
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
		in.h.lib, in.h.libReplayed = &libraryLog{ranBefore: ran}, false
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
	return k
}
