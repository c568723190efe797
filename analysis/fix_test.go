package analysis

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

const fixTestFile = "/w/a.py"

func fixTestEdit(file string, start, end int, text string) TextEdit {
	return TextEdit{Location: Location{File: file, Span: pyparse.Span{Start: start, End: end}}, NewText: text}
}

func TestApplyEdits(t *testing.T) {
	src := []byte("import jax\nx = pltpu.TPUCompilerParams()\n")
	name := strings.Index(string(src), "TPUCompilerParams")
	tests := []struct {
		name  string
		edits []TextEdit
		want  string
	}{
		{"none", nil, string(src)},
		{"replace", []TextEdit{fixTestEdit(fixTestFile, name, name+17, "CompilerParams")},
			"import jax\nx = pltpu.CompilerParams()\n"},
		{"insert and replace, unsorted", []TextEdit{
			fixTestEdit(fixTestFile, name, name+17, "CompilerParams"),
			fixTestEdit(fixTestFile, 0, 0, "from jax.experimental import pallas as pl\n"),
		}, "from jax.experimental import pallas as pl\nimport jax\nx = pltpu.CompilerParams()\n"},
		{"identical duplicates applied once", []TextEdit{
			fixTestEdit(fixTestFile, 0, 0, "import numpy\n"),
			fixTestEdit(fixTestFile, 0, 0, "import numpy\n"),
		}, "import numpy\n" + string(src)},
		{"insert before replacement at same offset", []TextEdit{
			fixTestEdit(fixTestFile, 0, 6, "from"),
			fixTestEdit(fixTestFile, 0, 0, "#\n"),
		}, "#\nfrom jax\nx = pltpu.TPUCompilerParams()\n"},
		{"adjacent replacements", []TextEdit{
			fixTestEdit(fixTestFile, 0, 6, "IMPORT"), fixTestEdit(fixTestFile, 6, 10, " JAX"),
		}, "IMPORT JAX\nx = pltpu.TPUCompilerParams()\n"},
		{"delete to end", []TextEdit{fixTestEdit(fixTestFile, 10, len(src), "")}, "import jax"},
	}
	for _, tt := range tests {
		got, err := ApplyEdits(src, tt.edits)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	if !strings.HasPrefix(string(src), "import jax\n") {
		t.Error("ApplyEdits modified its input")
	}
}

func TestApplyEditsErrors(t *testing.T) {
	src := []byte("é = 1\n") // é is 2 bytes
	tests := []struct {
		name     string
		edits    []TextEdit
		conflict bool
	}{
		{"overlap", []TextEdit{fixTestEdit(fixTestFile, 0, 3, "a"), fixTestEdit(fixTestFile, 2, 4, "b")}, true},
		{"two distinct inserts at one offset", []TextEdit{fixTestEdit(fixTestFile, 2, 2, "a"), fixTestEdit(fixTestFile, 2, 2, "b")}, true},
		{"insert inside replacement", []TextEdit{fixTestEdit(fixTestFile, 0, 4, "a"), fixTestEdit(fixTestFile, 3, 3, "b")}, true},
		{"same span, different text", []TextEdit{fixTestEdit(fixTestFile, 0, 2, "a"), fixTestEdit(fixTestFile, 0, 2, "b")}, true},
		{"out of bounds", []TextEdit{fixTestEdit(fixTestFile, 5, 99, "")}, false},
		{"negative", []TextEdit{fixTestEdit(fixTestFile, -1, 0, "")}, false},
		{"reversed", []TextEdit{fixTestEdit(fixTestFile, 3, 2, "")}, false},
		{"splits UTF-8", []TextEdit{fixTestEdit(fixTestFile, 1, 2, "")}, false},
	}
	for _, tt := range tests {
		_, err := ApplyEdits(src, tt.edits)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if got := errors.Is(err, ErrConflict); got != tt.conflict {
			t.Errorf("%s: errors.Is(ErrConflict) = %v (%v)", tt.name, got, err)
		}
	}
}

func TestValidateFix(t *testing.T) {
	srcs := map[string][]byte{fixTestFile: []byte("λ = 1\n"), "/w/b.py": []byte("pass\n")}
	fix := func(edits ...TextEdit) SuggestedFix { return SuggestedFix{Title: "t", Edits: edits} }
	good := []SuggestedFix{
		fix(),
		fix(fixTestEdit(fixTestFile, 0, 2, "x")),
		fix(fixTestEdit(fixTestFile, 0, 0, "a"), fixTestEdit("/w/b.py", 0, 0, "a")), // same offset, different files
		fix(fixTestEdit(fixTestFile, 7, 7, "# end\n")),
	}
	for i, f := range good {
		if err := ValidateFix(f, srcs); err != nil {
			t.Errorf("good[%d]: %v", i, err)
		}
	}
	bad := map[string]SuggestedFix{
		"unknown file":  fix(fixTestEdit("/w/c.py", 0, 0, "x")),
		"out of bounds": fix(fixTestEdit(fixTestFile, 0, 8, "")),
		"overlap":       fix(fixTestEdit(fixTestFile, 0, 3, "a"), fixTestEdit(fixTestFile, 2, 4, "b")),
		"split UTF-8":   fix(fixTestEdit(fixTestFile, 1, 1, "x")),
		"invalid text":  fix(fixTestEdit(fixTestFile, 0, 0, "\xff")),
	}
	for name, f := range bad {
		if err := ValidateFix(f, srcs); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func planTestDiag(code string, fixes ...SuggestedFix) Diagnostic {
	return Diagnostic{Code: code, Location: Location{File: fixTestFile}, Fixes: fixes}
}

func TestPlanFixes(t *testing.T) {
	imp := fixTestEdit(fixTestFile, 0, 0, "from jax.experimental import pallas as pl\n")
	safe := func(title string, edits ...TextEdit) SuggestedFix {
		return SuggestedFix{Title: title, Applicability: Safe, Edits: edits}
	}
	unsafeFix := SuggestedFix{Title: "u", Applicability: Unsafe, Edits: []TextEdit{fixTestEdit(fixTestFile, 40, 41, "u")}}
	display := SuggestedFix{Title: "d", Applicability: DisplayOnly, Edits: []TextEdit{fixTestEdit(fixTestFile, 50, 51, "d")}}
	diags := []Diagnostic{
		planTestDiag("PAL301", safe("a", imp, fixTestEdit(fixTestFile, 10, 14, "A")), safe("a2")),
		planTestDiag("PAL301", safe("b", imp, fixTestEdit(fixTestFile, 20, 24, "B"))), // shares the import
		planTestDiag("PAL302", safe("c", fixTestEdit(fixTestFile, 12, 22, "C"))),      // overlaps a and b
		planTestDiag("PAL101", display, unsafeFix),
		planTestDiag("PAL101", display),
		planTestDiag("PAL302", safe("e", fixTestEdit(fixTestFile, 24, 24, "E"))), // insertion right after b
		planTestDiag("PAL302", safe("bad", fixTestEdit(fixTestFile, 60, 62, "x"), fixTestEdit(fixTestFile, 61, 63, "y"))),
	}
	plan := PlanFixes(diags, false)
	if got := planTestTitles(plan.Applied); got != "a,b,e" {
		t.Errorf("applied %s, want a,b,e", got)
	}
	if len(plan.Skipped) != 2 || plan.Skipped[0].Title != "c" || plan.Skipped[1].Title != "bad" {
		t.Fatalf("skipped %+v", plan.Skipped)
	}
	if !strings.Contains(plan.Skipped[0].Reason, "conflict") || !strings.Contains(plan.Skipped[1].Reason, "invalid") {
		t.Errorf("reasons %+v", plan.Skipped)
	}
	edits := plan.Edits[fixTestFile]
	var spans []string
	for _, e := range edits {
		spans = append(spans, e.NewText[:1])
	}
	if got := strings.Join(spans, ""); got != "fABE" {
		t.Errorf("edits %q, want one import then A, B, E", got)
	}
	withUnsafe := PlanFixes(diags, true)
	if got := planTestTitles(withUnsafe.Applied); got != "a,b,u,e" {
		t.Errorf("applied with unsafe %s, want a,b,u,e", got)
	}
}

func planTestTitles(fixes []AppliedFix) string {
	var s []string
	for _, f := range fixes {
		s = append(s, f.Title)
	}
	return strings.Join(s, ",")
}

// TestPlanFixesApplies checks the plan's edits are accepted by ApplyEdits
// and that fixes in different files never conflict.
func TestPlanFixesApplies(t *testing.T) {
	src := []byte("x = pltpu.TPUCompilerParams()\ny = pltpu.TPUCompilerParams()\n")
	mk := func(file string, off int) Diagnostic {
		d := planTestDiag("PAL301", SuggestedFix{Title: "rename", Edits: []TextEdit{
			fixTestEdit(file, 0, 0, "import jax\n"),
			fixTestEdit(file, off, off+17, "CompilerParams"),
		}})
		d.File = file
		return d
	}
	plan := PlanFixes([]Diagnostic{mk("/w/a.py", 10), mk("/w/a.py", 40), mk("/w/b.py", 10)}, false)
	if len(plan.Applied) != 3 || len(plan.Skipped) != 0 {
		t.Fatalf("plan %+v", plan)
	}
	got, err := ApplyEdits(src, plan.Edits["/w/a.py"])
	want := "import jax\nx = pltpu.CompilerParams()\ny = pltpu.CompilerParams()\n"
	if err != nil || string(got) != want {
		t.Errorf("got %q, %v", got, err)
	}
	if n := len(plan.Edits["/w/b.py"]); n != 2 {
		t.Errorf("b.py has %d edits, want 2", n)
	}
}

func TestFixableCounts(t *testing.T) {
	s := SuggestedFix{Applicability: Safe}
	u := SuggestedFix{Applicability: Unsafe}
	d := SuggestedFix{Applicability: DisplayOnly}
	diags := []Diagnostic{planTestDiag("A", s), planTestDiag("B", u, s), planTestDiag("C", u), planTestDiag("D", d), planTestDiag("E")}
	if safe, unsafe := FixableCounts(diags); safe != 2 || unsafe != 1 {
		t.Errorf("FixableCounts = %d, %d; want 2, 1", safe, unsafe)
	}
}

// TestPlanFixesRandom checks on random fixes that whatever the plan
// contains applies cleanly and includes every edit of every applied fix.
func TestPlanFixesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := []byte(strings.Repeat("abcdefghij", 5))
	for iter := range 2000 {
		var diags []Diagnostic
		for i := range rng.IntN(6) {
			var edits []TextEdit
			for range 1 + rng.IntN(3) {
				start := rng.IntN(len(src) + 1)
				end := min(start+rng.IntN(4), len(src))
				edits = append(edits, fixTestEdit(fixTestFile, start, end, []string{"", "X", "imp\n"}[rng.IntN(3)]))
			}
			diags = append(diags, planTestDiag("PAL301", SuggestedFix{Title: strconv.Itoa(i), Edits: edits}))
		}
		plan := PlanFixes(diags, false)
		if len(plan.Applied)+len(plan.Skipped) != len(diags) {
			t.Fatalf("iter %d: %d applied + %d skipped != %d", iter, len(plan.Applied), len(plan.Skipped), len(diags))
		}
		if _, err := ApplyEdits(src, plan.Edits[fixTestFile]); err != nil {
			t.Fatalf("iter %d: plan does not apply: %v", iter, err)
		}
		for _, a := range plan.Applied {
			i, _ := strconv.Atoi(a.Title)
			for _, e := range diags[i].Fixes[0].Edits {
				if !slices.ContainsFunc(plan.Edits[fixTestFile], func(p TextEdit) bool { return sameEdit(p, e) }) {
					t.Fatalf("iter %d: edit %+v of applied fix %d missing from plan", iter, e, i)
				}
			}
		}
	}
}
