package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
)

// ErrConflict is wrapped by every error reporting two distinct edits that
// touch the same bytes, so callers can tell a clash between fixes (skip one)
// from an analyzer bug (report it).
var ErrConflict = errors.New("conflicting edits")

// ValidateFix reports an analyzer bug: edits out of the file's bounds,
// overlapping edits within one fix, edits to a file not in srcs, or edits
// that split a UTF-8 sequence. Identical duplicate edits are accepted, as
// ApplyEdits applies them once. Drivers call it before offering a fix, so a
// broken rule shows up as a reported bug instead of a corrupted file.
func ValidateFix(fix SuggestedFix, srcs map[string][]byte) error {
	for _, e := range fix.Edits {
		src, ok := srcs[e.File]
		if !ok {
			return fmt.Errorf("fix %q: edit to unknown file %s", fix.Title, e.File)
		}
		if err := checkEditBounds(src, e); err != nil {
			return fmt.Errorf("fix %q: %w", fix.Title, err)
		}
	}
	for file, edits := range editsByFile(fix.Edits) {
		if err := checkSortedEdits(dedupEdits(sortEdits(edits))); err != nil {
			return fmt.Errorf("fix %q in %s: %w", fix.Title, file, err)
		}
	}
	return nil
}

// checkEditBounds rejects spans outside src or with an end inside a
// multi-byte character: applying either would corrupt the file.
func checkEditBounds(src []byte, e TextEdit) error {
	s := e.Span
	if s.Start < 0 || s.End < s.Start || s.End > len(src) {
		return fmt.Errorf("edit [%d,%d) outside file of %d bytes", s.Start, s.End, len(src))
	}
	for _, off := range [2]int{s.Start, s.End} {
		if off < len(src) && !utf8.RuneStart(src[off]) {
			return fmt.Errorf("edit [%d,%d) splits a UTF-8 sequence at byte %d", s.Start, s.End, off)
		}
	}
	if !utf8.ValidString(e.NewText) {
		return fmt.Errorf("edit [%d,%d) inserts invalid UTF-8", s.Start, s.End)
	}
	return nil
}

// ApplyEdits applies non-overlapping edits to one file's source and returns
// the new content; src is not modified. Identical duplicate edits are
// applied once, because independent fixes often add the same import at the
// same place. Distinct overlapping edits yield an error wrapping ErrConflict.
func ApplyEdits(src []byte, edits []TextEdit) ([]byte, error) {
	sorted := dedupEdits(sortEdits(edits))
	for _, e := range sorted {
		if err := checkEditBounds(src, e); err != nil {
			return nil, err
		}
	}
	if err := checkSortedEdits(sorted); err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(src)+editGrowth(sorted))
	last := 0
	for _, e := range sorted {
		out = append(out, src[last:e.Span.Start]...)
		out = append(out, e.NewText...)
		last = e.Span.End
	}
	return append(out, src[last:]...), nil
}

// editGrowth estimates how many bytes the edits add, to size the output once.
func editGrowth(edits []TextEdit) int {
	n := 0
	for _, e := range edits {
		n += len(e.NewText) - e.Span.Len()
	}
	return max(n, 0)
}

// sortEdits returns a copy ordered by start then end, so an insertion at an
// offset precedes a replacement starting there. The sort is stable: edits
// equal in both keep the order the rule gave them.
func sortEdits(edits []TextEdit) []TextEdit {
	out := slices.Clone(edits)
	slices.SortStableFunc(out, compareEdits)
	return out
}

func compareEdits(a, b TextEdit) int {
	if c := cmp.Compare(a.Span.Start, b.Span.Start); c != 0 {
		return c
	}
	return cmp.Compare(a.Span.End, b.Span.End)
}

// sameEdit reports whether two edits would make the same change.
func sameEdit(a, b TextEdit) bool {
	return a.File == b.File && a.Span == b.Span && a.NewText == b.NewText
}

// dedupEdits drops repeats of an identical edit from a sorted list;
// identical edits are adjacent there because they share start and end.
func dedupEdits(sorted []TextEdit) []TextEdit {
	return slices.CompactFunc(sorted, sameEdit)
}

// checkSortedEdits reports the first pair of neighbours that overlap;
// sorted non-overlapping neighbours imply no overlap anywhere.
func checkSortedEdits(sorted []TextEdit) error {
	for i := 1; i < len(sorted); i++ {
		a, b := sorted[i-1], sorted[i]
		if a.Span.Overlaps(b.Span) {
			return fmt.Errorf("%w: [%d,%d) and [%d,%d)", ErrConflict,
				a.Span.Start, a.Span.End, b.Span.Start, b.Span.End)
		}
	}
	return nil
}

// editsByFile groups edits by file, keeping their order within each file.
func editsByFile(edits []TextEdit) map[string][]TextEdit {
	m := make(map[string][]TextEdit)
	for _, e := range edits {
		m[e.File] = append(m[e.File], e)
	}
	return m
}

// FixPlan is what bulk fixing (--fix) will do: the merged edits per file,
// sorted and free of duplicates, ready for ApplyEdits, and an account of
// which fixes made it in and which did not.
type FixPlan struct {
	Edits   map[string][]TextEdit
	Applied []AppliedFix
	Skipped []SkippedFix
}

// AppliedFix names a fix whose edits are in the plan. File is the file of
// the diagnostic it resolves.
type AppliedFix struct {
	Code  string
	File  string
	Title string
}

// SkippedFix names a fix that was chosen for its diagnostic but left out
// of the plan, and why.
type SkippedFix struct {
	Code, File, Title, Reason string
}

// PlanFixes picks, for bulk application, at most one fix per diagnostic:
// the first whose applicability is allowed (Safe always, Unsafe only when
// unsafe is true, DisplayOnly never). A chosen fix that overlaps a fix
// picked earlier (diagnostic order: first come, first served) is dropped
// whole, since half a fix may not even parse; the next --fix run, on the
// rewritten file, gets another chance at it. Identical edits from two fixes
// (the same import added at the same place) merge instead of conflicting.
// Fixes not chosen because they are unsafe or display-only are not listed
// as skipped; FixableCounts counts those.
func PlanFixes(diags []Diagnostic, unsafe bool) FixPlan {
	plan := FixPlan{Edits: make(map[string][]TextEdit)}
	for _, d := range diags {
		fix, ok := firstAllowedFix(d.Fixes, unsafe)
		if !ok {
			continue
		}
		if reason := plan.conflict(fix); reason != "" {
			plan.Skipped = append(plan.Skipped, SkippedFix{d.Code, d.File, fix.Title, reason})
			continue
		}
		plan.add(fix)
		plan.Applied = append(plan.Applied, AppliedFix{d.Code, d.File, fix.Title})
	}
	return plan
}

// FixableCounts counts the diagnostics --fix would address with safe fixes
// and the further ones --unsafe-fixes would add, for the CLI's summary line.
func FixableCounts(diags []Diagnostic) (safe, unsafe int) {
	for _, d := range diags {
		if _, ok := firstAllowedFix(d.Fixes, false); ok {
			safe++
		} else if _, ok := firstAllowedFix(d.Fixes, true); ok {
			unsafe++
		}
	}
	return safe, unsafe
}

func firstAllowedFix(fixes []SuggestedFix, unsafe bool) (SuggestedFix, bool) {
	for _, f := range fixes {
		if f.Applicability == Safe || (f.Applicability == Unsafe && unsafe) {
			return f, true
		}
	}
	return SuggestedFix{}, false
}

// conflict explains why fix cannot join the plan, or returns "".
func (p *FixPlan) conflict(fix SuggestedFix) string {
	for _, edits := range editsByFile(fix.Edits) {
		if err := checkSortedEdits(dedupEdits(sortEdits(edits))); err != nil {
			return "invalid fix (analyzer bug): " + err.Error()
		}
	}
	for _, e := range fix.Edits {
		if clash, ok := findClash(p.Edits[e.File], e); ok {
			return fmt.Sprintf("conflicts with an earlier fix's edit at %d:%d",
				clash.Pos.Line, clash.Pos.Column)
		}
	}
	return ""
}

// findClash returns a planned edit that overlaps e without being identical
// to it. planned is sorted and non-overlapping, so its ends ascend too and
// a binary search finds the only candidates: those ending at or after e's start.
func findClash(planned []TextEdit, e TextEdit) (TextEdit, bool) {
	i, _ := slices.BinarySearchFunc(planned, e.Span.Start, func(p TextEdit, start int) int {
		return cmp.Compare(p.Span.End, start)
	})
	for ; i < len(planned) && planned[i].Span.Start <= e.Span.End; i++ {
		if planned[i].Span.Overlaps(e.Span) && !sameEdit(planned[i], e) {
			return planned[i], true
		}
	}
	return TextEdit{}, false
}

// add merges a conflict-free fix into the plan, keeping each file's list
// sorted. The plan holds at most one edit per span (anything else would
// conflict), so an edit already present is found by its span alone.
func (p *FixPlan) add(fix SuggestedFix) {
	for _, e := range fix.Edits {
		list := p.Edits[e.File]
		i, found := slices.BinarySearchFunc(list, e, compareEdits)
		if found && sameEdit(list[i], e) {
			continue
		}
		p.Edits[e.File] = slices.Insert(list, i, e)
	}
}
