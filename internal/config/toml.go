package config

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// TOML files are decoded in two steps, because the TOML library checks
// duplicate keys with a linear search per key (10,000 keys took 0.8 s,
// 100,000 keys 70 s) while its parser alone is linear:
//
//  1. The parser walks every expression (so a syntax error anywhere is
//     still an error) and keeps only those on the key paths pallas-ls
//     reads; every other expression is blanked out, newlines kept, so
//     that line:column of what remains is unchanged.
//  2. The library decodes what remains, with all its checks, after
//     refusing more than maxTOMLKeys keys there.
//
// Each decoded file is kept by path and content hash, so a run parses a
// pyproject.toml once however many lookups need it.

// pyprojectPaths are the key paths of a pyproject.toml that pallas-ls
// reads: its own table and the dependency tables that pin jax. "*"
// matches any one key. Other files (.pallas-ls.toml, --config FILE) are
// ours throughout and are decoded whole.
var pyprojectPaths = [][]string{
	{"tool", toolTable},
	{"project", "dependencies"},
	{"project", "optional-dependencies"},
	{"dependency-groups"},
	{"tool", "poetry", "dependencies"},
	{"tool", "poetry", "group", "*", "dependencies"},
}

// maxTOMLKeys bounds the keys decoded from one file (after step 1). Real
// settings and dependency tables have tens of keys; the bound keeps the
// library's quadratic check under about 0.1 s.
const maxTOMLKeys = 5000

// decodeTOML decodes data, keeping only the paths wanted (nil: all).
func decodeTOML(path string, data []byte, wanted [][]string) (map[string]any, error) {
	kept, err := selectTOML(data, wanted)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var doc map[string]any
	if err := toml.Unmarshal(kept, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg := strings.TrimPrefix(de.Error(), "toml: ")
			return nil, fmt.Errorf("%s:%d:%d: invalid TOML: %s", path, line, col, msg)
		}
		return nil, fmt.Errorf("%s: invalid TOML: %w", path, err)
	}
	return doc, nil
}

// selectTOML returns data with the expressions off the wanted paths
// blanked. On a syntax error it returns the text so far with the rest
// kept as it is, so that step 2 reports that error at its place.
func selectTOML(data []byte, wanted [][]string) ([]byte, error) {
	out := make([]byte, len(data))
	var p unstable.Parser
	p.Reset(data)
	var table []string
	prev, keys := 0, 0
	for p.NextExpression() {
		e := p.Expression()
		path := exprPath(e, table)
		if e.Kind == unstable.Table || e.Kind == unstable.ArrayTable {
			table = path
		}
		end := exprEnd(data, e)
		if end <= prev || end > len(data) {
			// Not a shape this code knows; refusing keeps the key bound.
			return nil, fmt.Errorf("cannot delimit the TOML expression at byte %d; not read", prev)
		}
		if wanted == nil || onPaths(path, wanted) {
			copy(out[prev:end], data[prev:end])
			if keys += countKeys(e); keys > maxTOMLKeys {
				return nil, fmt.Errorf("more than %d keys in the tables pallas-ls reads; not read", maxTOMLKeys)
			}
		} else {
			blank(out[prev:end], data[prev:end])
		}
		prev = end
	}
	copy(out[prev:], data[prev:])
	return out, nil
}

// exprPath is the full key path an expression defines: a table header's
// key, or a key-value's dotted key under the current table.
func exprPath(e *unstable.Node, table []string) []string {
	var path []string
	if e.Kind == unstable.KeyValue {
		path = slices.Clone(table)
	}
	for it := e.Key(); it.Next(); {
		path = append(path, string(it.Node().Data))
	}
	return path
}

// exprEnd is the offset just past an expression: the end of a key-value's
// value, or the closing bracket(s) of a table header.
func exprEnd(data []byte, e *unstable.Node) int {
	if e.Kind == unstable.KeyValue {
		return int(e.Raw.Offset + e.Raw.Length)
	}
	end := 0
	for it := e.Key(); it.Next(); {
		r := it.Node().Raw
		end = int(r.Offset + r.Length)
	}
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	for n := 0; end < len(data) && data[end] == ']' && n < 2; n++ {
		end++
	}
	return end
}

// onPaths reports whether path is on one of the wanted paths: a prefix of
// one (a table holding it) or an extension of one (a key inside it).
func onPaths(path []string, wanted [][]string) bool {
	for _, w := range wanted {
		n := min(len(path), len(w))
		match := true
		for i := 0; i < n && match; i++ {
			match = w[i] == "*" || w[i] == path[i]
		}
		if match {
			return true
		}
	}
	return false
}

// countKeys counts the keys an expression defines, inline tables included.
func countKeys(n *unstable.Node) int {
	count := 0
	if n.Kind == unstable.KeyValue || n.Kind == unstable.Table || n.Kind == unstable.ArrayTable {
		count++
	}
	if n.Kind == unstable.KeyValue {
		return count + countKeys(n.Value())
	}
	for it := n.Children(); it.Next(); {
		count += countKeys(it.Node())
	}
	return count
}

// blank copies src into dst as spaces, keeping line breaks.
func blank(dst, src []byte) {
	for i, c := range src {
		if c == '\n' {
			dst[i] = '\n'
		} else {
			dst[i] = ' '
		}
	}
}

// decoded keeps decoded files by path, mode and content.
var decoded struct {
	sync.Mutex
	m     map[decodedKey]decodedFile
	count int // decodes done, for tests
}

type decodedKey struct {
	path      string
	pyproject bool
	sum       [32]byte
}

type decodedFile struct {
	doc map[string]any
	err error
}

// maxDecoded bounds the memo; a server session may see many versions.
const maxDecoded = 256

// decodeCached is decodeTOML, memoised. The documents returned are shared
// and must not be modified.
func decodeCached(path string, data []byte, pyproject bool) (map[string]any, error) {
	k := decodedKey{path, pyproject, sha256.Sum256(data)}
	decoded.Lock()
	f, ok := decoded.m[k]
	decoded.Unlock()
	if ok {
		return f.doc, f.err
	}
	var wanted [][]string
	if pyproject {
		wanted = pyprojectPaths
	}
	f.doc, f.err = decodeTOML(path, data, wanted)
	decoded.Lock()
	decoded.count++
	if decoded.m == nil || len(decoded.m) >= maxDecoded {
		decoded.m = map[decodedKey]decodedFile{}
	}
	decoded.m[k] = f
	decoded.Unlock()
	return f.doc, f.err
}
