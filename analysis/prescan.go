package analysis

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// The pre-scan: what pruning (prune.go) learns of a file from its bytes,
// without parsing it. It over-approximates: the import statements it reads
// (continuation lines included) are a superset of those the analysis
// resolves, and a per-file rule's trigger words (Analyzer.Triggers) are
// counted among every identifier outside whole-line comments.

// scan is what the pre-scan learns of one file without parsing it.
type scan struct {
	seed   bool // a per-file rule may report in it, or it carries a suppression
	pallas bool // imports or refers to pallas: may define or call kernels
	spmd   bool // names shard_map (or smap) and a collective: PAL104's plain collectives
	// sharded: names a sharding (NamedSharding, with_sharding_constraint)
	// and a collective, but no shard_map: an entry unless a test module
	// (prune.go).
	sharded bool
	imports []string   // absolute dotted names imported (and their parents)
	rel     []relative // relative imports
}

type relative struct {
	level int
	mod   string
	names []string
}

// maxJoin bounds the continuation lines joined to one import statement.
const maxJoin = 200

func prescan(src []byte, rules *fileRules) scan {
	var s scan
	s.seed = rules.mayReport(src) || mayHoldSuppression(src)
	// Code obtains Pallas from JAX by importing a module path that names
	// it, or by an attribute (`jax.experimental.pallas`); a comment or a
	// string that mentions it does not count, nor a longer attribute name
	// (jax's own `ctx.pallas_lowering_cache`).
	s.pallas = hasAttr(src, ".pallas")
	s.spmd, s.sharded = mentionsSPMD(src)
	lines := bytes.Split(src, []byte("\n"))
	for k := 0; k < len(lines); k++ {
		if l := bytes.TrimLeft(lines[k], " \t\f\v\r"); !bytes.HasPrefix(l, []byte("import")) && !bytes.HasPrefix(l, []byte("from")) {
			continue // most lines: no string made
		}
		t := importLine(lines[k])
		if !strings.HasPrefix(t, "import ") && !strings.HasPrefix(t, "from ") {
			continue
		}
		// `from m import (a,\n b)` and backslash continuations: one statement.
		for j := 0; j < maxJoin && k+1 < len(lines) &&
			(strings.HasSuffix(t, "\\") || strings.Count(t, "(") > strings.Count(t, ")")); j++ {
			k++
			t = strings.TrimSuffix(t, "\\") + " " + importLine(lines[k])
		}
		s.pallas = s.pallas || hasWord([]byte(t), "pallas") // not jax's `lax.pallas_lowerings`
		if strings.HasPrefix(t, "import ") {
			for _, part := range strings.Split(t[len("import "):], ",") {
				if f := strings.Fields(part); len(f) > 0 {
					s.imports = append(s.imports, strings.TrimSuffix(f[0], "\\"))
				}
			}
		} else {
			s.from(t)
		}
	}
	return s
}

// mayHoldSuppression reports whether src may hold a comment that
// suppress.go reads: "pallas-ls:", or "noqa" in any case, then ":" and, on
// the same line, "pal" in any case (`# noqa: PAL101`).
func mayHoldSuppression(src []byte) bool {
	if bytes.Contains(src, []byte("pallas-ls:")) {
		return true
	}
	for i := 0; ; {
		j := indexFold(src[i:], "noqa")
		if j < 0 {
			return false
		}
		i += j + len("noqa")
		rest := src[i:]
		if k := bytes.IndexByte(rest, '\n'); k >= 0 {
			rest = rest[:k]
		}
		if k := bytes.IndexByte(rest, ':'); k >= 0 && indexFold(rest[k:], "pal") >= 0 {
			return true
		}
	}
}

// indexFold is the index of the first instance of the lower-case ASCII
// word w in src, in any case, or -1.
func indexFold(src []byte, w string) int {
	first := string([]byte{w[0], w[0] - 'a' + 'A'})
	for i := 0; i+len(w) <= len(src); i++ {
		j := bytes.IndexAny(src[i:], first)
		if j < 0 {
			return -1
		}
		i += j
		if i+len(w) <= len(src) && bytes.EqualFold(src[i:i+len(w)], []byte(w)) {
			return i
		}
	}
	return -1
}

// fileRules is what the per-file rules of a run need of a file's text.
type fileRules struct {
	all      bool           // a rule without triggers: every file
	triggers [][]wordCount  // each a conjunction
	index    map[string]int // every word of every trigger, numbered
	first    [256]bool      // the first bytes of those words
	key      string         // the triggers, to tell rule sets apart (Engine.scans)
}

// wordCount is a word (by number) and how many times a trigger needs it.
type wordCount struct{ word, n int }

// newFileRules reads the triggers of the per-file rules among analyzers
// (Analyzer.Triggers, and ExactTriggers when exact: the configured JAX
// version is exact): what the pre-scan counts.
func newFileRules(analyzers []*Analyzer, exact bool) *fileRules {
	var triggers [][]string
	all := false
	for _, a := range sortedByCode(analyzers) {
		if a.RunFile != nil {
			all = all || a.Triggers == nil
			triggers = append(triggers, a.Triggers...)
			if exact && a.Triggers != nil {
				triggers = append(triggers, a.ExactTriggers...)
			}
		}
	}
	return triggerWords(all, triggers)
}

// triggerWords numbers the words of triggers; all says some rule reads
// every file.
func triggerWords(all bool, triggers [][]string) *fileRules {
	fr := &fileRules{all: all, index: map[string]int{}, key: fmt.Sprint(all, triggers)}
	for _, t := range triggers {
		var conj []wordCount
		for _, w := range t {
			if w == "" {
				continue // no identifier is empty
			}
			k, ok := fr.index[w]
			if !ok {
				k = len(fr.index)
				fr.index[w] = k
				fr.first[w[0]] = true
			}
			if i := slices.IndexFunc(conj, func(c wordCount) bool { return c.word == k }); i >= 0 {
				conj[i].n++
			} else {
				conj = append(conj, wordCount{k, 1})
			}
		}
		fr.triggers = append(fr.triggers, conj)
	}
	return fr
}

// mayReport reports whether some per-file rule may report in src: one
// pass counts the trigger words among src's identifiers.
func (fr *fileRules) mayReport(src []byte) bool {
	if fr.all {
		return true
	}
	if len(fr.triggers) == 0 {
		return false
	}
	counts := make([]int, len(fr.index))
	eachWord(src, func(w []byte) {
		if fr.first[w[0]] {
			if k, ok := fr.index[string(w)]; ok {
				counts[k]++
			}
		}
	})
next:
	for _, t := range fr.triggers {
		for _, c := range t {
			if counts[c.word] < c.n {
				continue next
			}
		}
		return true
	}
	return false
}

// eachWord calls f with every maximal run of identifier bytes in src (a
// name, a keyword, a number) outside whole-line comments, which licence
// headers fill with words ("ANY"). A line that starts with `#` is a
// comment or the inside of a string; it is only code inside an
// f-string's braces, so a line with `{` is read.
func eachWord(src []byte, f func([]byte)) {
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		i = end + 1
		if t := bytes.TrimLeft(line, " \t\f\v\r"); len(t) > 0 && t[0] == '#' && bytes.IndexByte(t, '{') < 0 {
			continue
		}
		for k := 0; k < len(line); {
			if !isIdentByte(line[k]) {
				k++
				continue
			}
			s := k
			for k < len(line) && isIdentByte(line[k]) {
				k++
			}
			f(line[s:k])
		}
	}
}

// hasWord reports whether src has w as a word (eachWord).
func hasWord(src []byte, w string) bool {
	found := false
	eachWord(src, func(x []byte) { found = found || string(x) == w })
	return found
}

// hasAttr reports whether src contains attr (".name") not followed by an
// identifier byte: `x.pallas` and `x.pallas.tpu`, not `x.pallas_call`.
// Non-ASCII bytes count as identifier bytes.
func hasAttr(src []byte, attr string) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(attr))
		if j < 0 {
			return false
		}
		end := i + j + len(attr)
		if end == len(src) || !isIdentByte(src[end]) {
			return true
		}
		i = end
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// importLine is a line trimmed, without its comment.
func importLine(line []byte) string {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(string(line))
}

func (s *scan) from(t string) {
	f := strings.Fields(t)
	if len(f) < 2 {
		return
	}
	mod := f[1]
	var names []string
	if i := strings.Index(t, " import "); i >= 0 {
		for _, n := range strings.Split(strings.Trim(t[i+len(" import "):], "()\\ "), ",") {
			if nf := strings.Fields(n); len(nf) > 0 {
				names = append(names, strings.Trim(nf[0], "()"))
			}
		}
	}
	if strings.HasPrefix(mod, ".") {
		level := len(mod) - len(strings.TrimLeft(mod, "."))
		s.rel = append(s.rel, relative{level: level, mod: mod[level:], names: names})
		return
	}
	s.imports = append(s.imports, mod)
	for _, n := range names {
		s.imports = append(s.imports, mod+"."+n) // may be a submodule
	}
}

func (s *scan) equal(t *scan) bool {
	if s.seed != t.seed || s.pallas != t.pallas || s.spmd != t.spmd || s.sharded != t.sharded || !slices.Equal(s.imports, t.imports) || len(s.rel) != len(t.rel) {
		return false
	}
	for i, r := range s.rel {
		q := t.rel[i]
		if r.level != q.level || r.mod != q.mod || !slices.Equal(r.names, q.names) {
			return false
		}
	}
	return true
}

// cachedScan is a pre-scan with the bytes it was made from.
type cachedScan struct {
	src  []byte
	scan scan
}

// mentionsSPMD reports whether src names shard_map or smap and a
// collective (spmd): a module that may call a collective on an axis its
// shard_map does not bind, with no kernel in sight (a shard_map tutorial,
// a model's sharded layer); or, failing that, a sharding (NamedSharding,
// with_sharding_constraint) and a collective (sharded): a layer whose
// functions may reduce over an axis they shard over first (PAL104's
// library case). Such modules run as entries too (prune.go). The
// substring test keeps the word scan to the few files that need it.
func mentionsSPMD(src []byte) (spmd, sharded bool) {
	if !bytes.Contains(src, []byte("shard_map")) && !bytes.Contains(src, []byte("smap")) &&
		!bytes.Contains(src, []byte("NamedSharding")) && !bytes.Contains(src, []byte("with_sharding_constraint")) {
		return false, false
	}
	var sm, sh, coll bool
	eachWord(src, func(w []byte) {
		switch {
		case string(w) == "shard_map" || string(w) == "smap":
			sm = true
		case ir.SPMDWords[string(w)]:
			sh = true
		case ir.CollectiveNames[string(w)]:
			coll = true
		}
	})
	return sm && coll, !sm && sh && coll
}
