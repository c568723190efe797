package analysis

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSummaryRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob("rules/testdata/PAL1*/*/*.py")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, p := range paths {
		src, _ := os.ReadFile(p)
		s := Summarize(p, src)
		data, err := EncodeSummary(s)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if s.Defs == nil && len(s.Body) > 0 && len(Summarize(p, src).Defs) > 0 {
			t.Fatalf("%s: encoding damaged the original", p)
		}
		back, err := DecodeSummary(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		back.Src = src
		if len(back.Defs) != len(s.Defs) || len(back.Classes) != len(s.Classes) || back.Hash != s.Hash ||
			!reflect.DeepEqual(refKeys(back.Refs), refKeys(s.Refs)) || !reflect.DeepEqual(back.Imports, s.Imports) {
			t.Errorf("%s: round trip lost information", p)
		}
		for _, d := range back.Defs {
			if d.File != back {
				t.Fatalf("%s: def %s not re-attached", p, d.Name)
			}
		}
	}
	if _, err := DecodeSummary([]byte("garbage")); err == nil {
		t.Error("garbage decoded without error")
	}
}

func refKeys(refs []APIRef) []APIRef {
	out := make([]APIRef, len(refs))
	for i, r := range refs {
		r.Call = nil
		out[i] = r
	}
	return out
}
