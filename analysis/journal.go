package analysis

import (
	"slices"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// The journal: every change to interpreter state that outlives the entry
// making it, with what to restore, so that a run can be taken back to the
// state an entry began in (resume.go) and a detached entry can take back
// what it did (detached.go). One log per kind of state (a location only
// ever changes through one kind, so each log is undone last-first on its
// own), of three shapes:
//   - keyLog: keys added to a map, undone by deleting them: memo, called,
//     instances, calls (kernel call records), effects, and assigned, a
//     cache keyed by statements that would otherwise keep the IR of every
//     replaced body alive;
//   - countLog: counters incremented, undone by decrementing: evals;
//   - setLog: a value set in a place (a map, a scope, the module table, a
//     kernel call's contexts) with the old one: attrs (an attribute of an
//     instance or class), envs (a binding of a module scope set from
//     another module, `mod.X = v`, or by the module's own main block:
//     journaledScope), mods (a module first run: its scope is
//     dropped, to run again), reaches (a kernel call's context record
//     added or replaced).
//
// Each log also takes its records out, undoing them but keeping what they
// set, and puts them back (takeFrom): a main block runs in the state
// before the tests (detached.go).
//
// Objects created after a mark are unreachable once it is restored, so
// changes to them need no undoing; recording them too keeps the rule
// simple: one append per change, small next to the evaluation making it.

// A changeLog is the journal of one kind of state.
type changeLog interface {
	len() int
	// undoTo undoes the records from n on, last first, and drops them.
	undoTo(n int)
	// takeFrom is undoTo keeping the records and what they set; put
	// sets it again and appends the records back.
	takeFrom(n int) (put func())
}

type journal struct {
	// What the evaluation reads (undoState).
	memo      keyLog[string, value]
	assigned  keyLog[*ir.Stmt, []string]
	instances keyLog[instKey, *vInstance]
	syms      keyLog[symKey, *vUnknown]
	effects   keyLog[*kernelDecl, *kernelEffects]
	evals     countLog[*ir.FuncDef]
	attrs     setLog[string, value]
	envs      setLog[string, value]
	mods      setLog[int, modRun]
	// What it reported (undoOutputs).
	called  keyLog[*ir.FuncDef, int32]
	calls   keyLog[callSiteKey, *kernelCall]
	reaches setLog[lowering.ContextKind, *reachState]
	colls   keyLog[collKey, *collUse]
	smaps   keyLog[smKey, *smUse]
	refs    keyLog[*ir.Expr, *refUse]
}

const nState, nOutputs = 9, 6

// callsLog is the index of journal.calls in journal.outputs().
const callsLog = 1

func (j *journal) state() [nState]changeLog {
	return [...]changeLog{&j.memo, &j.assigned, &j.instances, &j.effects, &j.evals, &j.attrs, &j.envs, &j.mods, &j.syms}
}

func (j *journal) outputs() [nOutputs]changeLog {
	return [...]changeLog{&j.called, &j.calls, &j.reaches, &j.colls, &j.smaps, &j.refs}
}

// keyLog records the keys added to one map.
type keyLog[K comparable, V any] struct {
	m    map[K]V
	keys []K
}

func (l *keyLog[K, V]) add(k K, v V) {
	l.m[k] = v
	l.keys = append(l.keys, k)
}

func (l *keyLog[K, V]) len() int { return len(l.keys) }

func (l *keyLog[K, V]) undoTo(n int) {
	for i := len(l.keys) - 1; i >= n; i-- {
		delete(l.m, l.keys[i])
	}
	l.keys = truncate(l.keys, n)
}

func (l *keyLog[K, V]) takeFrom(n int) func() {
	keys := slices.Clone(l.keys[n:])
	vals := make([]V, len(keys))
	for i, k := range keys {
		vals[i] = l.m[k]
	}
	l.undoTo(n)
	return func() {
		for i, k := range keys {
			l.add(k, vals[i])
		}
	}
}

// countLog records the increments of the counters of one map.
type countLog[K comparable] struct {
	m    map[K]int
	keys []K
}

func (l *countLog[K]) inc(k K) {
	l.m[k]++
	l.keys = append(l.keys, k)
}

func (l *countLog[K]) len() int { return len(l.keys) }

func (l *countLog[K]) undoTo(n int) {
	for i := len(l.keys) - 1; i >= n; i-- {
		if k := l.keys[i]; l.m[k] <= 1 {
			delete(l.m, k)
		} else {
			l.m[k]--
		}
	}
	l.keys = truncate(l.keys, n)
}

func (l *countLog[K]) takeFrom(n int) func() {
	keys := slices.Clone(l.keys[n:])
	l.undoTo(n)
	return func() {
		for _, k := range keys {
			l.inc(k)
		}
	}
}

// place is where a setLog's values live: a map (mapPlace), a scope,
// the module table (modTable), a kernel call's contexts (kernelCall).
type place[K comparable, V any] interface {
	get(K) (V, bool)
	set(K, V)
	unset(K)
}

// setLog records values set in places, with the values they replaced.
type setLog[K comparable, V any] struct{ recs []setRecord[K, V] }

type setRecord[K comparable, V any] struct {
	at  place[K, V]
	key K
	old V
	had bool
}

func (r *setRecord[K, V]) restore() {
	if r.had {
		r.at.set(r.key, r.old)
	} else {
		r.at.unset(r.key)
	}
}

// set sets key in p to v, recording what it replaces.
func (l *setLog[K, V]) set(p place[K, V], key K, v V) {
	old, had := p.get(key)
	l.recs = append(l.recs, setRecord[K, V]{at: p, key: key, old: old, had: had})
	p.set(key, v)
}

// unset removes key from p, recording what it held.
func (l *setLog[K, V]) unset(p place[K, V], key K) {
	old, had := p.get(key)
	l.recs = append(l.recs, setRecord[K, V]{at: p, key: key, old: old, had: had})
	p.unset(key)
}

func (l *setLog[K, V]) len() int { return len(l.recs) }

func (l *setLog[K, V]) undoTo(n int) {
	for i := len(l.recs) - 1; i >= n; i-- {
		l.recs[i].restore()
	}
	l.recs = truncate(l.recs, n)
}

// takeFrom: a place may change more than once, so each record's value is
// the one in place when the records after it are undone.
func (l *setLog[K, V]) takeFrom(n int) func() {
	recs := slices.Clone(l.recs[n:])
	vals := make([]V, len(recs))
	for i := len(recs) - 1; i >= 0; i-- {
		vals[i], _ = recs[i].at.get(recs[i].key)
		recs[i].restore()
	}
	l.recs = truncate(l.recs, n)
	return func() {
		for i, r := range recs {
			r.at.set(r.key, vals[i])
		}
		l.recs = append(l.recs, recs...)
	}
}

// mapPlace is a map as a place.
type mapPlace[K comparable, V any] map[K]V

func (m mapPlace[K, V]) get(k K) (V, bool) { v, ok := m[k]; return v, ok }
func (m mapPlace[K, V]) set(k K, v V)      { m[k] = v }
func (m mapPlace[K, V]) unset(k K)         { delete(m, k) }

// modTable is the interpreter's module table as a place, by module.id; a
// module that has not run holds the zero modRun.
type modTable []modRun

func (t modTable) get(id int) (modRun, bool) { return t[id], true }
func (t modTable) set(id int, r modRun)      { t[id] = r }
func (t modTable) unset(id int)              { t[id] = modRun{} }

// A kernel call's contexts as a place: a context added goes to the end of
// its order, and undone (last first) it is the last there.
func (kc *kernelCall) get(k lowering.ContextKind) (*reachState, bool) {
	rs, ok := kc.reaches[k]
	return rs, ok
}

func (kc *kernelCall) set(k lowering.ContextKind, rs *reachState) {
	if _, ok := kc.reaches[k]; !ok {
		kc.order = append(kc.order, k)
	}
	kc.reaches[k] = rs
}

func (kc *kernelCall) unset(k lowering.ContextKind) {
	delete(kc.reaches, k)
	kc.order = kc.order[:len(kc.order)-1]
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
