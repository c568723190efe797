package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// maxFixPasses bounds the fix loop. Fixes usually settle in one or two
// passes (a fix dropped for overlapping another gets its turn in the next);
// a rule whose fix keeps producing new fixes must not hang the run.
const maxFixPasses = 10

// fixState is the content of the files while fixes are applied in memory;
// nothing is written until the loop has settled.
type fixState struct {
	orig   map[string][]byte // as read from disk
	srcs   map[string][]byte // with the fixes so far
	frozen map[string]bool   // files a fix broke: they get no more fixes
	// fixedIn counts the problems fixed per file (the diagnostic's file).
	fixedIn map[string]int
	warned  map[string]bool // invalid fixes already reported
}

// fixed is the number of problems fixed in all files.
func (st *fixState) fixed() int {
	n := 0
	for _, k := range st.fixedIn {
		n += k
	}
	return n
}

// runFix applies the fixes, writes the changed files and returns what
// remains to report. "Fixed N problems." goes to stderr in text mode, so
// that stdout stays the report of what is left, as with ruff.
func (c *checkRun) runFix(ctx context.Context, out outcome) (outcome, error) {
	st, out, err := c.fixLoop(ctx, out)
	if err != nil {
		return out, err
	}
	if c.writeFixed(ctx, st) {
		if out, err = c.analyze(ctx, st.srcs); err != nil {
			return out, err
		}
	}
	if c.f.format == "text" && st.fixed() > 0 {
		fmt.Fprintf(c.e.stderr, "Fixed %s.\n", textPlural(st.fixed(), "problem"))
	}
	return out, nil
}

// runDiff prints what --fix would change, writes nothing, and exits 1 when
// there is something to fix (ruff's --diff).
func (c *checkRun) runDiff(ctx context.Context, out outcome) int {
	st, _, err := c.fixLoop(ctx, out)
	if err != nil {
		return c.fail(ctx, err)
	}
	changed := false
	for _, f := range c.files {
		if d := UnifiedDiff(f.Display, st.orig[f.Path], st.srcs[f.Path]); d != "" {
			io.WriteString(c.e.stdout, d)
			changed = true
		}
	}
	if c.f.format == "text" && st.fixed() > 0 {
		fmt.Fprintf(c.e.stderr, "Would fix %s.\n", textPlural(st.fixed(), "problem"))
	}
	c.printVerbose()
	return c.exitCode(changed)
}

// fixLoop applies fixes and re-checks until no fix applies: each pass fixes
// what it can, and the re-check both finds what remains and gives skipped,
// overlapping fixes another chance on the new text.
func (c *checkRun) fixLoop(ctx context.Context, out outcome) (*fixState, outcome, error) {
	st := &fixState{orig: c.srcs, srcs: maps.Clone(c.srcs), frozen: map[string]bool{},
		fixedIn: map[string]int{}, warned: map[string]bool{}}
	for pass := 1; ; pass++ {
		plan := analysis.PlanFixes(out.diags, c.f.unsafeFixes)
		c.warnInvalidFixes(st, plan.Skipped)
		prev := c.applyPlan(st, plan)
		if len(prev) == 0 {
			return st, out, nil
		}
		next, err := c.analyze(ctx, st.srcs)
		if err != nil {
			return st, out, err
		}
		if c.revertBroken(st, prev, out.notes, next.notes) {
			if next, err = c.analyze(ctx, st.srcs); err != nil {
				return st, out, err
			}
		}
		countFixed(st, plan.Applied, prev)
		out = next
		if pass == maxFixPasses {
			if len(analysis.PlanFixes(out.diags, c.f.unsafeFixes).Applied) > 0 {
				printWarning(c.e.stderr, fmt.Sprintf("fixes did not settle after %d passes; the rest are reported as findings (please report this pallas-ls bug)", maxFixPasses))
			}
			return st, out, nil
		}
	}
}

// applyPlan applies a plan's edits to the current sources and returns the
// previous content of each changed file. A file whose edits fail to apply
// or change nothing is frozen: both are rule bugs a retry cannot mend.
func (c *checkRun) applyPlan(st *fixState, plan analysis.FixPlan) map[string][]byte {
	prev := map[string][]byte{}
	for _, file := range slices.Sorted(maps.Keys(plan.Edits)) {
		src, ok := st.srcs[file]
		if !ok || st.frozen[file] {
			continue
		}
		next, err := analysis.ApplyEdits(src, plan.Edits[file])
		if err != nil {
			printWarning(c.e.stderr, fmt.Sprintf("%s: fixes not applied: %v (please report this pallas-ls bug)", c.display(file), err))
			st.frozen[file] = true
			continue
		}
		if bytes.Equal(next, src) {
			// A fix that changes nothing would loop until maxFixPasses.
			st.frozen[file] = true
			continue
		}
		prev[file], st.srcs[file] = src, next
	}
	return prev
}

// countFixed credits a pass's fixes to their files, except in files whose
// changes were reverted (frozen ones are never changed, so a fix in a
// frozen file did not land).
func countFixed(st *fixState, applied []analysis.AppliedFix, prev map[string][]byte) {
	for _, a := range applied {
		if _, changed := prev[a.File]; changed && !st.frozen[a.File] {
			st.fixedIn[a.File]++
		}
	}
}

// revertBroken undoes this pass's changes to files that gained syntax
// errors: a fix must never break the code (ruff's rule). Such a file gets
// no further fixes. It reports whether any file was reverted.
func (c *checkRun) revertBroken(st *fixState, prev map[string][]byte, before, after []analysis.Diagnostic) bool {
	was, now := notesPerFile(before), notesPerFile(after)
	reverted := false
	for _, file := range slices.Sorted(maps.Keys(prev)) {
		if now[file] > was[file] {
			st.srcs[file] = prev[file]
			st.frozen[file], reverted = true, true
			printWarning(c.e.stderr, fmt.Sprintf("%s: a fix would introduce a syntax error and was not applied (please report this pallas-ls bug)", c.display(file)))
		}
	}
	return reverted
}

func notesPerFile(notes []analysis.Diagnostic) map[string]int {
	m := map[string]int{}
	for _, n := range notes {
		m[n.File]++
	}
	return m
}

// warnInvalidFixes reports fixes dropped as analyzer bugs. Fixes dropped
// for overlapping another are not mentioned: the next pass retries them.
func (c *checkRun) warnInvalidFixes(st *fixState, skipped []analysis.SkippedFix) {
	for _, s := range skipped {
		key := s.File + "\x00" + s.Code + "\x00" + s.Reason
		if strings.HasPrefix(s.Reason, "invalid fix") && !st.warned[key] {
			st.warned[key] = true
			printWarning(c.e.stderr, fmt.Sprintf("%s: %s fix %q skipped: %s", c.display(s.File), s.Code, s.Title, s.Reason))
		}
	}
}

// writeFixed writes every changed file atomically, keeping its mode and
// owner. A file that cannot be written is reported (exit 2), and one that
// changed on disk since it was read is skipped with a warning; either way
// its content in memory is reverted, so that the report matches the disk.
// It returns whether that happened. An interrupted run writes nothing
// more: each file is either written whole or not at all.
func (c *checkRun) writeFixed(ctx context.Context, st *fixState) bool {
	reverted := false
	for _, f := range c.files {
		if bytes.Equal(st.orig[f.Path], st.srcs[f.Path]) {
			continue
		}
		if ctx.Err() != nil {
			return reverted
		}
		if testHookBeforeWrite != nil {
			testHookBeforeWrite(f.Path)
		}
		err := ReplaceFile(f.Path, c.rootFor(f.Path), st.orig[f.Path], st.srcs[f.Path])
		switch {
		case err == nil:
			continue
		case errors.Is(err, ErrChanged):
			printWarning(c.e.stderr, fmt.Sprintf("%s: %v", f.Display, err))
		default:
			printError(c.e.stderr, fmt.Sprintf("%s: %v", f.Display, err))
			c.failed = true
		}
		st.srcs[f.Path] = st.orig[f.Path]
		st.fixedIn[f.Path] = 0
		reverted = true
	}
	return reverted
}

// testHookBeforeWrite, when set by a test, runs just before each file is
// replaced (to edit it "concurrently").
var testHookBeforeWrite func(path string)

// rootFor is the checked root a file was found under: the PATH argument
// (a directory, or a file's directory) that contains it, the longest if
// several do. WriteFileAtomic refuses to follow a symlink out of it, so a
// checked-out repository cannot make --fix write elsewhere.
func (c *checkRun) rootFor(file string) string {
	best := c.e.workDir
	if len(c.f.paths) > 0 {
		best = ""
	}
	for _, p := range c.f.paths {
		root := absPath(c.e.workDir, p)
		if st, err := os.Stat(root); err == nil && !st.IsDir() {
			root = filepath.Dir(root)
		}
		if within(file, root) && len(root) > len(best) {
			best = root
		}
	}
	if best == "" {
		return filepath.Dir(file)
	}
	return best
}

// within reports whether path is root or below it, lexically.
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
