package ir

import (
	"crypto/sha256"
	"strings"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// Summary is everything the analysis keeps of one file: a pure function of
// its path and bytes, so it can be cached by content hash and reused
// across runs and editor keystrokes.
type Summary struct {
	Path    string
	Src     []byte
	Hash    [32]byte
	Body    []*Stmt
	Defs    []*FuncDef  // every def and lambda, nested ones included
	Classes []*ClassDef // every class, nested ones included
	// Refs are the references to JAX names the file makes (through its
	// imports), for the API-history rules.
	Refs []APIRef
	// Imports maps top-level local names to the qualified names they bind.
	Imports      map[string]string
	Comments     []pp.Comment
	SyntaxErrors []pp.SyntaxError
	// ParseError is set when the file could not be parsed at all.
	ParseError string
	// UsesPallas is set when the file refers to jax.experimental.pallas,
	// NamesSPMD when it refers to a shard_map and to a collective
	// (jax.lax.psum, axis_index, ...): only the functions of such files
	// are run as library entries (analysis/driver.go).
	UsesPallas, NamesSPMD bool
	mapper                *pp.Mapper
}

// Mapper returns the coordinate mapper of the file's source.
func (s *Summary) Mapper() *pp.Mapper {
	if s.mapper == nil {
		s.mapper = pp.NewMapper(s.Src)
	}
	return s.mapper
}

// Summarize parses src and extracts its Summary. It never fails: a file
// that cannot be parsed yields a Summary with ParseError set.
func Summarize(path string, src []byte) *Summary {
	tree, err := pp.Parse(src)
	if err != nil {
		s := &Summary{Path: path, Src: src, Hash: sha256.Sum256(src), ParseError: err.Error()}
		return s
	}
	return SummarizeTree(path, tree)
}

// SummarizeTree extracts the Summary of an already parsed (or cached) tree.
func SummarizeTree(path string, tree *pp.Tree) *Summary {
	src := tree.Src
	s := &Summary{Path: path, Src: src, Hash: sha256.Sum256(src)}
	b := &builder{t: tree, sum: s}
	s.Body = b.block(tree.Root())
	markMains(s)
	s.Comments = tree.Comments()
	s.SyntaxErrors = tree.SyntaxErrors()
	s.Imports = topImports(s.Body)
	s.Refs = collectRefs(s)
	for _, r := range s.Refs {
		if strings.HasPrefix(r.Qual, "jax.experimental.pallas") || strings.HasPrefix(r.Qual, "jax._src.pallas") {
			s.UsesPallas = true
			break
		}
	}
	s.NamesSPMD = namesSPMD(s.Refs)
	return s
}

// markMains gives each module-level `if __name__ == "__main__":` (no
// else) its Main: the body as a function of its own, which the
// interpreter runs as an entry of its own after the tests instead of
// inline (analysis/detached.go).
func markMains(s *Summary) {
	for _, st := range s.Body {
		if st.Kind == StIf && len(st.Else) == 0 && len(st.Body) > 0 && isMainGuard(st.Cond) {
			st.Main = &FuncDef{Name: mainQual, Qual: mainQual, Span: st.Span, NameSpan: st.Cond.Span, Body: st.Body, File: s}
		}
	}
}

// mainQual is the Name and Qual of a main block's FuncDef.
const mainQual = "__main__"

// isMainGuard reports whether e is `__name__ == "__main__"`, either way round.
func isMainGuard(e *Expr) bool {
	if e == nil || e.Kind != ExCompare || e.Op() != "==" || len(e.Args) != 2 {
		return false
	}
	a, b := e.Args[0], e.Args[1]
	if a.Kind == ExConst {
		a, b = b, a
	}
	return a.Kind == ExName && a.Name == "__name__" && b.Kind == ExConst && b.Const() != nil &&
		b.Const().Kind == ConstStr && b.Const().S == "__main__"
}

// topImports maps each name bound by a module-level import to its
// qualified name ("pl" -> "jax.experimental.pallas"). Relative imports
// keep their leading dots ("..a.b"); the engine resolves them (analysis/program.go).
func topImports(body []*Stmt) map[string]string {
	m := map[string]string{}
	for _, st := range body {
		if st.Kind == StImport {
			BindImport(m, st.Import)
		}
	}
	return m
}

func BindImport(m map[string]string, imp *Import) {
	prefix := ""
	for i := 0; i < imp.Level; i++ {
		prefix += "."
	}
	for _, n := range imp.Names {
		switch {
		case imp.From:
			local := n.Name
			if n.As != "" {
				local = n.As
			}
			m[local] = JoinQual(prefix+imp.Module, n.Name)
		case n.As != "":
			m[n.As] = n.Name
		default:
			// `import a.b` binds `a`.
			head := n.Name
			for i := 0; i < len(head); i++ {
				if head[i] == '.' {
					head = head[:i]
					break
				}
			}
			m[head] = head
		}
	}
}

func JoinQual(a, b string) string {
	if a == "" {
		return b
	}
	if a[len(a)-1] == '.' {
		return a + b
	}
	return a + "." + b
}

// Text returns the source of a span.
func (s *Summary) Text(sp pp.Span) string { return string(s.Src[sp.Start:sp.End]) }

// CollectiveNames are the jax.lax collectives whose axis names PAL104
// checks, by their last name: lowering's collective, axis-index and
// axis-size roles (ir may not import lowering; a test in analysis keeps
// the two the same). The pre-scan's word scan reads them too.
var CollectiveNames = map[string]bool{"psum": true, "pmean": true, "pmax": true, "pmin": true, "ppermute": true,
	"pshuffle": true, "all_gather": true, "all_to_all": true, "psum_scatter": true, "axis_index": true, "axis_size": true}

// namesSPMD reports whether refs name a shard_map (jax.shard_map, the
// experimental one, jax.smap) and a jax.lax collective.
// SPMDWords are the words that, with a collective's, make a module
// name SPMD code (NamesSPMD; the pre-scan's mentionsSPMD): a shard_map,
// or a sharding whose axes a library function then reduces over (PAL104).
var SPMDWords = map[string]bool{"shard_map": true, "smap": true, "NamedSharding": true, "with_sharding_constraint": true}

func namesSPMD(refs []APIRef) bool {
	sm, coll := false, false
	for _, r := range refs {
		switch q := r.Qual; {
		case q == "jax.shard_map" || q == "jax.smap" || strings.HasPrefix(q, "jax.experimental.shard_map") ||
			q == "jax.sharding.NamedSharding" || q == "jax.lax.with_sharding_constraint":
			sm = true
		case strings.HasPrefix(q, "jax.lax.") && CollectiveNames[q[len("jax.lax."):]]:
			coll = true
		}
		if sm && coll {
			return true
		}
	}
	return false
}
