package analysis

import (
	"cmp"
	"maps"
	"path/filepath"
)

// Detached entries and replays. After the module top levels, the tests
// and the configured entry points come the main blocks (`if __name__ ==
// "__main__":` of entry modules: each module run as a script), then the
// library entries. Each main block is detached: it starts in the state
// the concrete entries left and takes it back when done (undoState),
// keeping only what it reported: the functions it ran (called) and its
// kernel calls. So it runs as it would right after the tests, no other
// script or library entry sees what it did (nor does anything in Python:
// a main block never runs on import), and the library entries start in
// that same state too.
//
// What that buys: when a check resumes a run (journal.go) at a main block
// or later, that state is the same, so a main block that ran none of the
// changed bodies takes the same steps and reports the same. Its reports,
// logged when it ran (entryLog), are replayed instead: applied as
// kernelCalled applied them (offer), in the same order. The library
// entries depend on that state, on which functions ran before them (a
// function no entry ran is one) and on the bodies they run: when those
// are the same and none of their bodies changed, their logs are replayed
// as a whole too. Editing a function only one script calls then costs
// that script, not the run.
//
// Replayed library entries leave no state in the journal, so a later
// resume inside them runs them all again (dropLogsFrom, resumable).

// entryLog is what one main block or library entry reported: the bodies
// it ran (or counted as run), once each, its kernel calls in order, and
// the inert library functions it skipped.
type entryLog struct {
	ran    []*FuncDef
	seen   map[*FuncDef]bool
	offers []offer
	inert  int
	// mods are the modules the entry ran first: a main block takes their
	// state back, yet it read their code (lastRun.neverRan).
	mods []*Module
}

func (l *entryLog) add(d *FuncDef) {
	if !l.seen[d] {
		l.seen[d] = true
		l.ran = append(l.ran, d)
	}
}

// touches reports whether the entry ran one of the bodies in changed or
// first ran one of the modules in mods.
func (l *entryLog) touches(changed map[*FuncDef]bool, mods map[*Module]bool) bool {
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
	in.inert += l.inert
	in.replayed++
}

// runMain runs the main block d of module m (the entry at c), or replays
// its log when the check resumes a run whose state before it is the same
// and none of the bodies it ran changed.
func (in *interp) runMain(c cursor, m *Module, d *FuncDef) {
	at := len(in.marks)
	in.begin(c)
	if old := in.mainLogs[c]; old != nil && in.replay != nil && !old.touches(in.replay, in.replayMods) {
		in.replayLog(old)
		return
	}
	log := &entryLog{seen: map[*FuncDef]bool{}}
	in.log = log
	in.entry(m, "module top level of "+filepath.Base(m.Path), CtxPlain, func() {
		in.markCalled(d)
		in.execBody(m.env, d.Body)
	})
	in.log = nil
	in.undoState(in.marks[at])
	if in.mainLogs == nil {
		in.mainLogs = map[cursor]*entryLog{}
	}
	in.mainLogs[c] = log
}

// libraryLog is what the library entries reported, each under its mark,
// and which of the functions they could be had run when they began.
type libraryLog struct {
	ranBefore map[*FuncDef]bool
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
		replay := in.replay != nil && in.lib != nil && in.lib.complete && maps.Equal(ran, in.lib.ranBefore)
		for i := 0; replay && i < len(in.lib.entries); i++ {
			replay = !in.lib.entries[i].log.touches(in.replay, in.replayMods)
		}
		in.libStart = len(in.marks)
		in.begin(libraryStart)
		if replay {
			for i := range in.lib.entries {
				e := &in.lib.entries[i]
				e.mark = len(in.marks)
				in.begin(e.at)
				in.replayLog(e.log)
			}
			in.libReplayed = true
			return
		}
		in.lib, in.libReplayed = &libraryLog{ranBefore: ran}, false
		c = cursor{phase: phaseLibrary}
	}
	in.logLib = in.lib != nil
	in.runLibraryEntries(c)
	in.logLib, in.log = false, nil
	if in.lib != nil {
		in.lib.complete = !in.stopped
	}
}

// candidatesRun lists the functions runLibraryEntries may make library
// entries (module-level functions and methods of the modules it visits)
// that have run: the part of called it reads.
func (in *interp) candidatesRun() map[*FuncDef]bool {
	out := map[*FuncDef]bool{}
	add := func(d *FuncDef) {
		if in.called[d] != 0 {
			out[d] = true
		}
	}
	for _, m := range in.prog.Modules {
		if m.Sum == nil || m.env == nil || !m.Sum.UsesPallas {
			continue
		}
		for _, st := range m.Sum.Body {
			switch st.Kind {
			case StDef:
				add(st.Def)
			case StClass:
				for _, cs := range st.Class.Body {
					if cs.Kind == StDef {
						add(cs.Def)
					}
				}
			}
		}
	}
	return out
}

// dropMainLogsFrom forgets the logs of the main blocks at or after c.
func (in *interp) dropMainLogsFrom(c cursor) {
	for k := range in.mainLogs {
		if !k.before(c) {
			delete(in.mainLogs, k)
		}
	}
}

// before reports whether the entry at c runs before the one at d.
func (c cursor) before(d cursor) bool {
	return cmp.Or(cmp.Compare(c.phase, d.phase), cmp.Compare(c.mod, d.mod), cmp.Compare(c.stmt, d.stmt), cmp.Compare(c.method, d.method)) < 0
}

// dropLogsFrom forgets the library entries' logs from mark k on, as
// undoTo(k) takes them back.
func (in *interp) dropLogsFrom(k int) {
	if k <= in.libStart {
		in.libStart = -1 // the logs stay, for a replay
		return
	}
	if in.lib != nil {
		n := 0
		for n < len(in.lib.entries) && in.lib.entries[n].mark < k {
			n++
		}
		in.lib.entries, in.lib.complete = in.lib.entries[:n], false
	}
}

// resumable is the entry a run can be resumed at in place of entry k: k,
// or the start of the library entries for one of them when they were
// replayed (the journal holds none of their state).
func (in *interp) resumable(k int) int {
	if in.libReplayed && in.libStart >= 0 && k > in.libStart && k < len(in.marks) {
		return in.libStart
	}
	return k
}
