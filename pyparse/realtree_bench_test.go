package pyparse

import (
	"os"
	"testing"
)

// BenchmarkRealTree parses every Python file of the trees named by
// $PALLAS_REALTREE on one goroutine, per op: with the grammar-gap repair
// (Parse, as check and the editor parse) and without it (tree-sitter's
// tree alone), so the difference is what the repair costs.
//
//	PALLAS_REALTREE=/work/repos/jax go test ./pyparse -run '^$' -bench RealTree -count 5
func BenchmarkRealTree(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, p := range realTreeFiles(b) {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs, size = append(srcs, src), size+len(src)
	}
	for _, m := range []struct {
		name  string
		parse func([]byte) (*Tree, error)
	}{
		{"repaired", Parse},
		{"tree-sitter", func(src []byte) (*Tree, error) { t, _, err := parseRaw(src); return t, err }},
	} {
		b.Run(m.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, src := range srcs {
					if _, err := m.parse(src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
