package lowering

import (
	"sort"
	"strings"
)

// HistoryTriggers lists what a file's text must contain for it to name an
// API or a keyword that is deprecated or removed at some version: every
// word of at least one trigger, as many times as the trigger lists it. A
// reference is resolved through the file's own imports and attribute
// chains, so the import and the chain together spell every component of
// one of the API's qualified spellings (the canonical name or an alias
// Lookup accepts: `jax`, `experimental`, `pallas`, `tpu`,
// `semaphore_signal`; `pjit` twice for `jax._src.pjit.pjit`); a keyword
// also spells its callee. The analysis parses only the files the
// per-file rules (PAL301, PAL302) can report in, and these triggers decide
// which, so they must over-approximate. The result is the caller's.
func HistoryTriggers() [][]string { return clone(historyTriggers) }

// SinceTriggers is HistoryTriggers for what a version does not have yet:
// the APIs, modules and keywords added after the oldest release. Only a
// check whose JAX version is exact reports those (an older default or a
// lower bound may not be what runs), so only such a check needs the files
// that name them; kept apart, the common words they contain (`shard_map`,
// `make_mesh`) do not make every JAX file worth parsing.
func SinceTriggers() [][]string { return clone(sinceTriggers) }

func clone(ts [][]string) [][]string {
	out := make([][]string, len(ts))
	for i, t := range ts {
		out[i] = append([]string(nil), t...)
	}
	return out
}

var historyTriggers, sinceTriggers = func() ([][]string, [][]string) {
	type set struct {
		seen map[string]bool
		out  [][]string
	}
	changed, added := &set{seen: map[string]bool{}}, &set{seen: map[string]bool{}}
	add := func(to *set, spelling string, keyword ...string) {
		words := append(strings.Split(spelling, "."), keyword...)
		sort.Strings(words)
		key := strings.Join(words, " ")
		if !to.seen[key] {
			to.seen[key] = true
			to.out = append(to.out, words)
		}
	}
	both := func(name string, since, deprecated, removed Version) {
		if !deprecated.IsZero() || !removed.IsZero() {
			add(changed, name)
		}
		if !since.IsZero() {
			add(added, name)
		}
	}
	for name, a := range index {
		both(name, a.Since, a.Deprecated, a.Removed)
	}
	for alias, canon := range aliases {
		a := index[canon]
		both(alias, a.Since, a.Deprecated, a.Removed)
	}
	for _, m := range modules {
		add(added, m.Name)
	}
	for _, k := range keywordChanges {
		spellings := []string{k.Callee}
		for alias, canon := range aliases {
			if canon == k.Callee {
				spellings = append(spellings, alias)
			}
		}
		for _, sp := range spellings {
			if !k.Deprecated.IsZero() || !k.Removed.IsZero() {
				add(changed, sp, k.Keyword)
			}
			if !k.Since.IsZero() {
				add(added, sp, k.Keyword)
			}
		}
	}
	for _, st := range []*set{changed, added} {
		sort.Slice(st.out, func(i, j int) bool { return strings.Join(st.out[i], " ") < strings.Join(st.out[j], " ") })
	}
	return changed.out, added.out
}()
