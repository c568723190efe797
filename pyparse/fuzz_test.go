package pyparse

import (
	"testing"
	"unicode/utf8"
)

// FuzzParse: any bytes parse without crashing, and every node lies inside
// the source with its children inside it; the tree is a valid preorder
// (checkTree), however the grammar-gap repairs rearranged it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "def f(:\n", "x = (1,\n", "\x00\xff\xfe", "import a.b as c\n", "@d\nclass C(B):\n  def m(self): return [x for x in y]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := Parse(src)
		if err != nil {
			return
		}
		for i := range tr.Nodes {
			n := &tr.Nodes[i]
			if int(n.End) > len(src) || n.Start > n.End {
				t.Fatalf("node %d (%s) span %d-%d outside source of %d bytes", i, n.Kind, n.Start, n.End, len(src))
			}
			if p := n.Parent; p >= 0 && (tr.Nodes[p].Start > n.Start || tr.Nodes[p].End < n.End) {
				t.Fatalf("node %d outside its parent", i)
			}
		}
		if err := checkTree(tr); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
	})
}

// FuzzMapper: offset -> position -> offset round trips in every encoding.
func FuzzMapper(f *testing.F) {
	for _, s := range []string{"a\nb", "é\r\n😀x\rz", "\xff\n\xfe", ""} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		m := NewMapper(src)
		if off < 0 {
			off = -off
		}
		if len(src) > 0 {
			off %= len(src) + 1
		} else {
			off = 0
		}
		// Only offsets on character boundaries round-trip.
		for off > 0 && off < len(src) && !utf8.RuneStart(src[off]) {
			off--
		}
		if l, c := m.UTF16(off); m.OffsetUTF16(l, c) != off && !insideCRLF(src, off) {
			t.Fatalf("utf16 round trip of %d: (%d,%d) -> %d", off, l, c, m.OffsetUTF16(l, c))
		}
		if l, c := m.UTF8(off); m.OffsetUTF8(l, c) != off && !insideCRLF(src, off) {
			t.Fatalf("utf8 round trip of %d", off)
		}
		if l, c := m.LineCol(off); m.OffsetLineCol(l, c) != off && !insideCRLF(src, off) {
			t.Fatalf("line/col round trip of %d", off)
		}
	})
}

// insideCRLF: an offset between \r and \n has no position of its own
// (it maps to the end of the line).
func insideCRLF(src []byte, off int) bool {
	return off > 0 && off < len(src) && src[off-1] == '\r' && src[off] == '\n'
}
