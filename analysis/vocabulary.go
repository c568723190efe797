package analysis

import (
	"bytes"
	"sort"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// WrittenElsewhere reports whether name is written as a quoted string
// ('name' or "name") anywhere in the program's files outside span of the
// file at path. PAL104 asks it of an axis name that the known mesh around
// a collective lacks: a name written nowhere else can be no axis of any
// mesh the workspace builds (a renamed or misspelt axis; comments do not
// count), while a name
// the code writes elsewhere (a constant, another mesh, a PartitionSpec)
// may belong to the mesh a path the analysis cannot rule out really runs
// with, e.g. a model whose configuration picks its branch. The literals
// at but (UnboundCollective.PassedAt: the name passed as a plain argument
// on the way to the collective) do not count.
func (p *Pass) WrittenElsewhere(name, path string, span pp.Span, but ...Location) bool {
	if name == "" {
		return true
	}
	for _, q := range []byte{'"', '\''} {
		pat := quotedName(name, q)
		for _, f := range p.Files {
			src := f.Src
			for off := 0; ; {
				i := bytes.Index(src[off:], pat)
				if i < 0 {
					break
				}
				at := off + i
				if (f.Path != path || at < span.Start || at+len(pat) > span.End) && !inComment(f, at) && !atAny(but, f.Path, at) {
					return true
				}
				off = at + 1
			}
		}
	}
	return false
}

// atAny reports whether byte offset at of the file at path starts one of
// the locations.
func atAny(locs []Location, path string, at int) bool {
	for _, l := range locs {
		if l.File == path && l.Span.Start == at {
			return true
		}
	}
	return false
}

// WrittenInWorkspace is WrittenElsewhere over every file of the
// workspace, including those the analysis never parsed (pruned: a module
// that builds a mesh need not reach Pallas). In an unparsed file a quoted
// name in a comment counts too, so the answer errs towards "written". PAL104
// asks it of a library collective's axis name, where no known mesh limits
// the names a caller may bind. Without the workspace's files (a Pass not
// made by Check) every name counts as written.
func (p *Pass) WrittenInWorkspace(name, path string, span pp.Span) bool {
	if p.WrittenElsewhere(name, path, span) || p.Options == nil || p.Options.workspace == nil {
		return true
	}
	parsed := make(map[string]bool, len(p.Files))
	for _, f := range p.Files {
		parsed[f.Path] = true
	}
	for _, q := range []byte{'"', '\''} {
		pat := quotedName(name, q)
		for _, f := range p.Options.workspace {
			if !parsed[f.Path] && bytes.Contains(f.Src, pat) {
				return true
			}
		}
	}
	return false
}

// quotedName is name between two q quotes.
func quotedName(name string, q byte) []byte {
	pat := make([]byte, 0, len(name)+2)
	return append(append(append(pat, q), name...), q)
}

// inComment reports whether byte offset at of f lies inside a comment.
func inComment(f *ir.Summary, at int) bool {
	cs := f.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Span.End > at })
	return i < len(cs) && cs[i].Span.Start <= at
}
