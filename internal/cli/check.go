package cli

import (
	"context"
	"errors"
	"io/fs"
	"runtime"
	"sort"
	"time"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// runCheck is the `check` command (spec.md §1).
func runCheck(ctx context.Context, e *env, args []string) int {
	f, err := parseCheckFlags(args)
	switch {
	case errors.Is(err, errHelp):
		printCheckHelp(e.stdout)
		return exitOK
	case err != nil:
		return usageFailure(e, err.Error(), "check")
	}
	if f.jobs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(f.jobs))
	}
	defer startProfile(e)()
	warn := func(msg string) { printWarning(e.stderr, msg) }
	c := &checkRun{e: e, f: f, start: time.Now(), engine: newEngine(f, e.getenv, warn)}
	return c.run(ctx)
}

// checkRun is the state of one `check`.
type checkRun struct {
	e      *env
	f      *checkFlags
	start  time.Time
	engine *analysis.Engine // shared by all groups and fix passes: summaries are parsed once
	set    *settings
	files  []workspace.File  // readable files, sorted by path
	srcs   map[string][]byte // their content by path, as read from disk
	failed bool              // an error was printed but the run went on: exit 2
	// labels are the context labels of the last analysis, printed by -v.
	labels []analysis.ContextLabel
}

// outcome is the merged result of analysing every group.
type outcome struct {
	diags []analysis.Diagnostic // sorted
	notes []analysis.Diagnostic // syntax-error notes, sorted
}

func (c *checkRun) run(ctx context.Context) int {
	if err := c.load(ctx); err != nil {
		return c.fail(ctx, err)
	}
	out, err := c.analyze(ctx, c.srcs)
	if err != nil {
		return c.fail(ctx, err)
	}
	writeHeapProfile(c.e)
	if c.f.diff {
		return c.runDiff(ctx, out)
	}
	if c.f.fix {
		if out, err = c.runFix(ctx, out); err != nil {
			return c.fail(ctx, err)
		}
	}
	if err := c.report(out); err != nil {
		return c.fail(ctx, err)
	}
	return c.exitCode(anyFailing(out.diags, c.f.failAt))
}

// fail prints a fatal error and returns exit code 2. An interrupted run
// says so instead of "context canceled".
func (c *checkRun) fail(ctx context.Context, err error) int {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		printError(c.e.stderr, "interrupted")
	} else {
		printError(c.e.stderr, err.Error())
	}
	return exitError
}

// load discovers and reads the files and assigns each to its settings
// group. A file that cannot be read is reported and left out; the others
// are still checked, and the run exits 2.
func (c *checkRun) load(ctx context.Context) error {
	set, err := newSettings(c.e, c.f)
	if err != nil {
		return err
	}
	c.set = set
	opts := set.discoverOptions()
	opts.Context = ctx
	files, warnings, err := workspace.Discover(c.f.paths, opts)
	for _, w := range warnings {
		if ctx.Err() == nil || !errors.Is(w, ctx.Err()) {
			printWarning(c.e.stderr, w.Error())
		}
	}
	defer set.reportProblems()
	if err != nil {
		return err
	}
	if testHookAfterDiscover != nil {
		testHookAfterDiscover(files)
	}
	c.srcs = make(map[string][]byte, len(files))
	for _, l := range workspace.ReadAll(ctx, files) {
		if l.Err != nil {
			c.readFailed(l.Err)
			continue
		}
		if err := set.assign(l.Path); err != nil {
			return err
		}
		c.files = append(c.files, l.File)
		c.srcs[l.Path] = l.Src
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var total int64
	for _, src := range c.srcs {
		total += int64(len(src))
	}
	workspace.SetMemoryLimit(total)
	return c.ensureGroup()
}

// testHookAfterDiscover, when set by a test, runs between discovery and
// reading (to delete or replace a discovered file).
var testHookAfterDiscover func([]workspace.File)

// readFailed reports a file that could not be read. Oversized files are
// skipped on purpose (generated code), and a file deleted since discovery
// is no longer part of the tree, so both only warn.
func (c *checkRun) readFailed(err error) {
	switch {
	case errors.Is(err, workspace.ErrTooLarge):
		printWarning(c.e.stderr, err.Error())
	case errors.Is(err, fs.ErrNotExist):
		printWarning(c.e.stderr, err.Error()+" (deleted since it was found; skipped)")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// reported once by load
	default:
		printError(c.e.stderr, err.Error())
		c.failed = true
	}
}

// ensureGroup makes a run without files still resolve settings, so that
// -v and the JSON report state the JAX version they would have used.
func (c *checkRun) ensureGroup() error {
	if len(c.set.groups) > 0 {
		return nil
	}
	start := c.e.workDir
	if len(c.f.paths) > 0 {
		start = absPath(c.e.workDir, c.f.paths[0])
	}
	_, err := c.set.groupFor(start)
	return err
}

// analyze checks srcs once per settings group, each run seeing the whole
// program, and keeps from each run the findings in that group's files.
// The engine analyses the program once for all groups whose settings the
// interpretation reads alike (entry points, shard-map wrappers) and
// renders that run for each group's options; each group's report covers
// its own files only (Options.ReportOnly), so that a monorepo of many
// projects costs about one run, not one per project.
func (c *checkRun) analyze(ctx context.Context, srcs map[string][]byte) (outcome, error) {
	sources := make([]analysis.SourceFile, 0, len(c.files))
	for _, f := range c.files {
		sources = append(sources, analysis.SourceFile{Path: f.Path, Src: srcs[f.Path]})
	}
	order := shareOrder(c.set.groups)
	var out outcome
	labels := make([][]analysis.ContextLabel, len(c.set.groups))
	for _, i := range order {
		g := c.set.groups[i]
		opts := g.opts
		if len(c.set.groups) > 1 {
			opts.ReportOnly = g.files
		}
		res, err := c.engine.Check(ctx, sources, opts)
		if err != nil {
			return outcome{}, err
		}
		g.platform, g.platformWhy = res.Platform, res.PlatformReason
		out.diags = append(out.diags, inGroup(res.Diagnostics, g)...)
		out.notes = append(out.notes, inGroup(res.Notes, g)...)
		if c.f.verbose {
			for _, l := range analysis.ContextLabels(res.KernelCalls) {
				if g.files[l.File] {
					labels[i] = append(labels[i], l)
				}
			}
		}
	}
	c.labels = nil
	for _, ls := range labels {
		c.labels = append(c.labels, ls...)
	}
	analysis.SortDiagnostics(out.diags)
	analysis.SortDiagnostics(out.notes)
	return out, nil
}

// shareOrder is the order analyze checks the groups in: the groups one
// analysis serves (analysis.Options.ShareKey) one after the other, in the
// order of each key's first group, and in their own order within a key.
// The findings are sorted and the labels kept in group order whatever the
// order of the checks.
func shareOrder(groups []*group) []int {
	order := make([]int, len(groups))
	keys := make([]string, len(groups))
	first := map[string]int{}
	for i, g := range groups {
		order[i], keys[i] = i, g.opts.ShareKey()
		if _, ok := first[keys[i]]; !ok {
			first[keys[i]] = i
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return first[keys[order[a]]] < first[keys[order[b]]] })
	return order
}

func inGroup(diags []analysis.Diagnostic, g *group) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, d := range diags {
		if g.files[d.File] {
			out = append(out, d)
		}
	}
	return out
}

// anyFailing reports whether a finding is at or above the --fail-on
// severity (lower Severity values are more severe).
func anyFailing(diags []analysis.Diagnostic, at analysis.Severity) bool {
	for _, d := range diags {
		if d.Severity <= at {
			return true
		}
	}
	return false
}

// exitCode applies --exit-zero, which hides findings but never errors.
func (c *checkRun) exitCode(findings bool) int {
	switch {
	case c.failed, c.set != nil && c.set.failed:
		return exitError
	case findings && !c.f.exitZero:
		return exitFindings
	}
	return exitOK
}
