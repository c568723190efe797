package analysis

import (
	"cmp"
	"maps"
	"path/filepath"
	"unsafe"
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
// (swapOut: undone, with what it undid kept) and put back after (swapIn),
// so the library entries start where the configured entry points left.
//
// What that buys: a main block depends only on that state and on the
// bodies and modules it runs. When a check resumes a run (journal.go) at
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

// replayable returns the log of the main block at c when runMain would
// replay it: the check resumes a run whose state before the tests is the
// same, and the block ran none of the changed bodies and modules.
func (in *interp) replayable(c cursor) *entryLog {
	if old := in.mainLogs[c]; old != nil && in.replay != nil && !old.touches(in.replay, in.replayMods) {
		return old
	}
	return nil
}

// runMain runs the main block d of module m (the entry at c), or replays
// its log (replayable).
func (in *interp) runMain(c cursor, m *Module, d *FuncDef) {
	at := len(in.marks)
	in.begin(c)
	if old := in.replayable(c); old != nil {
		in.replayLog(old)
		return
	}
	log := &entryLog{seen: map[*FuncDef]bool{}}
	in.log = log
	in.entry(m, "module top level of "+filepath.Base(m.Path), CtxPlain, func() {
		in.markCalled(d)
		in.execBody(in.scope(m), d.Body)
	})
	in.log, log.seen = nil, nil
	in.undoState(in.marks[at])
	if in.mainLogs == nil {
		in.mainLogs = map[cursor]*entryLog{}
	}
	in.mainLogs[c] = log
}

// testsStart is the cursor of the mark that begins the tests (mod -1: no
// test has it): the state main blocks run in.
var testsStart = cursor{phase: phaseTests, mod: -1}

// mainsFrom calls f for each main block of an entry module from c on, in
// order, until f returns false.
func (in *interp) mainsFrom(c cursor, f func(c cursor, m *Module, d *FuncDef) bool) {
	for i := c.mod; i < len(in.prog.Modules); i++ {
		m := in.prog.Modules[i]
		if m.Sum == nil || in.scope(m) == nil || !in.entries[m.Path] {
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
	if in.testsStart < 0 {
		return // a run cut short before its tests
	}
	all := true // replays read no state: then nothing is swapped
	in.mainsFrom(c, func(c cursor, _ *Module, _ *FuncDef) bool {
		all = in.replayable(c) != nil
		return all
	})
	var sw *swapped
	if !all {
		sw = in.swapOut(in.marks[in.testsStart])
	}
	in.mainsFrom(c, func(c cursor, m *Module, d *FuncDef) bool {
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
		replay := in.replayLib && in.lib != nil && in.lib.complete && maps.Equal(ran, in.lib.ranBefore)
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
	if in.log != nil {
		in.log.seen = nil
	}
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
		if m.Sum == nil || in.scope(m) == nil || !m.Sum.UsesPallas {
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

// swapped is the state the entries after a mark added, taken out of the
// interpreter: the journal's records from the mark on and, for each, the
// value it set.
type swapped struct {
	memo      taken[string, Value]
	assigned  taken[*Stmt, []string]
	evals     []*FuncDef
	instances taken[instKey, *vInstance]
	effects   taken[*kernelDecl, *kernelEffects]
	attrs     []attrUndo
	attrsV    []Value
	envs      []envUndo
	envsV     []Value
	mods      []*Module
	modsV     []modRun
	pins      []unsafe.Pointer
	budget    int
}

// taken is one map's journal records from a mark on, with the values
// they set.
type taken[K comparable, V any] struct {
	keys []K
	vals []V
}

func take[K comparable, V any](records []K, from int, m map[K]V) taken[K, V] {
	t := taken[K, V]{keys: append([]K(nil), records[from:]...)}
	for _, k := range t.keys {
		t.vals = append(t.vals, m[k])
	}
	return t
}

// put sets the values again and appends the records to the journal's.
func (t taken[K, V]) put(m map[K]V, records *[]K) {
	for i, k := range t.keys {
		m[k] = t.vals[i]
	}
	*records = append(*records, t.keys...)
}

// swapOut takes the state back to mark m as undoState does, keeping what
// it takes back for swapIn.
func (in *interp) swapOut(m mark) *swapped {
	j := &in.journal
	s := &swapped{budget: in.budget}
	s.memo = take(j.memo, m.memo, in.memo)
	s.assigned = take(j.assigned, m.assigned, in.assigned)
	s.evals = append([]*FuncDef(nil), j.evals[m.evals:]...)
	s.instances = take(j.instances, m.instances, in.instances)
	s.effects = take(j.effects, m.effects, in.effects)
	// An attribute or binding may change more than once: each record's
	// value is the next one's old value, or the current one for the last.
	s.attrs = append([]attrUndo(nil), j.attrs[m.attrs:]...)
	s.attrsV = make([]Value, len(s.attrs))
	for i := len(s.attrs) - 1; i >= 0; i-- {
		u := s.attrs[i]
		s.attrsV[i] = u.m[u.name]
		if u.had {
			u.m[u.name] = u.old
		} else {
			delete(u.m, u.name)
		}
	}
	s.envs = append([]envUndo(nil), j.envs[m.envs:]...)
	s.envsV = make([]Value, len(s.envs))
	for i := len(s.envs) - 1; i >= 0; i-- {
		u := s.envs[i]
		s.envsV[i] = u.env.value(u.name)
		if u.had {
			u.env.set(u.name, u.old)
		} else {
			u.env.unset(u.name)
		}
	}
	s.mods = append([]*Module(nil), j.mods[m.mods:]...)
	for _, md := range s.mods {
		s.modsV = append(s.modsV, in.mods[md.id])
	}
	s.pins = append([]unsafe.Pointer(nil), in.pins[m.pins:]...)
	// What remains is undoState's, the attributes and bindings done.
	j.attrs, j.envs = truncate(j.attrs, m.attrs), truncate(j.envs, m.envs)
	in.undoState(m)
	return s
}

// swapIn puts back what swapOut took out, in the order it was recorded.
func (in *interp) swapIn(s *swapped) {
	j := &in.journal
	s.memo.put(in.memo, &j.memo)
	s.assigned.put(in.assigned, &j.assigned)
	for _, d := range s.evals {
		in.evals[d]++
	}
	j.evals = append(j.evals, s.evals...)
	s.instances.put(in.instances, &j.instances)
	s.effects.put(in.effects, &j.effects)
	for i, u := range s.attrs {
		u.m[u.name] = s.attrsV[i]
	}
	j.attrs = append(j.attrs, s.attrs...)
	for i, u := range s.envs {
		u.env.set(u.name, s.envsV[i])
	}
	j.envs = append(j.envs, s.envs...)
	for i, md := range s.mods {
		in.mods[md.id] = s.modsV[i]
	}
	j.mods = append(j.mods, s.mods...)
	in.pins = append(in.pins, s.pins...)
	in.budget = s.budget
}
