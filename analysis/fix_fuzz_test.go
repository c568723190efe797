package analysis

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// FuzzApplyEdits: random edits on real fixtures either apply, leaving every
// byte outside the edited spans in order and in place, or are refused
// (conflict or bounds); never a corrupted file or a panic.
func FuzzApplyEdits(f *testing.F) {
	paths, _ := filepath.Glob("rules/testdata/PAL1*/*/*.py")
	for i, p := range paths {
		if i%4 == 0 {
			f.Add(p, uint32(7), uint32(3), "x", uint32(40), uint32(0), "(")
		}
	}
	f.Fuzz(func(t *testing.T, path string, s1, l1 uint32, t1 string, s2, l2 uint32, t2 string) {
		src, err := os.ReadFile(path)
		if err != nil || len(src) == 0 {
			return
		}
		mk := func(s, l uint32, text string) TextEdit {
			start := int(s % uint32(len(src)+1))
			end := min(len(src), start+int(l%64))
			return TextEdit{Location: Location{File: path, Span: pp.Span{Start: start, End: end}}, NewText: text}
		}
		edits := []TextEdit{mk(s1, l1, t1), mk(s2, l2, t2)}
		out, err := ApplyEdits(src, edits)
		if err != nil {
			return // refused: fine, as long as nothing was written
		}
		// Every untouched byte survives, in order: strip the edits back out.
		// (Edits apply in (start, end) order, an insertion before a
		// replacement at the same offset.)
		sort.Slice(edits, func(i, j int) bool {
			a, b := edits[i].Span, edits[j].Span
			return a.Start < b.Start || a.Start == b.Start && a.End < b.End
		})
		pos, o := 0, 0
		for _, e := range dedupEdits(edits) {
			if e.Span.Start < pos {
				t.Fatalf("overlapping edits %v were applied", edits)
			}
			if !bytes.Equal(out[o:o+e.Span.Start-pos], src[pos:e.Span.Start]) {
				t.Fatalf("bytes before %d changed", e.Span.Start)
			}
			o += e.Span.Start - pos
			if !bytes.HasPrefix(out[o:], []byte(e.NewText)) {
				t.Fatalf("edit text %q not found at %d", e.NewText, o)
			}
			o += len(e.NewText)
			pos = e.Span.End
		}
		if !bytes.Equal(out[o:], src[pos:]) {
			t.Fatalf("bytes after the last edit changed")
		}
	})
}
