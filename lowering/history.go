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
func HistoryTriggers() [][]string {
	out := make([][]string, len(historyTriggers))
	for i, t := range historyTriggers {
		out[i] = append([]string(nil), t...)
	}
	return out
}

var historyTriggers = func() [][]string {
	seen := map[string]bool{}
	var out [][]string
	add := func(spelling string, keyword ...string) {
		words := append(strings.Split(spelling, "."), keyword...)
		sort.Strings(words)
		key := strings.Join(words, " ")
		if !seen[key] {
			seen[key] = true
			out = append(out, words)
		}
	}
	changes := func(a API) bool { return !a.Since.IsZero() || !a.Deprecated.IsZero() || !a.Removed.IsZero() }
	for name, a := range index {
		if changes(a) {
			add(name)
		}
	}
	for alias, canon := range aliases {
		if changes(index[canon]) {
			add(alias)
		}
	}
	for _, m := range modules {
		add(m.Name)
	}
	for _, k := range keywordChanges {
		add(k.Callee, k.Keyword)
		for alias, canon := range aliases {
			if canon == k.Callee {
				add(alias, k.Keyword)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.Join(out[i], " ") < strings.Join(out[j], " ") })
	return out
}()
