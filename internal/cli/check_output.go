package cli

import (
	"fmt"
	"time"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// report prints the run: notes and -v details on stderr, the findings in
// the chosen format on stdout.
func (c *checkRun) report(out outcome) error {
	c.printNotes(out.notes)
	r := c.newReport(out.diags)
	var err error
	switch c.f.format {
	case "json":
		err = WriteJSON(c.e.stdout, r)
	case "sarif":
		err = WriteSARIF(c.e.stdout, r)
	case "github":
		err = WriteGitHub(c.e.stdout, r)
	default:
		err = c.writeText(r)
	}
	c.printVerbose()
	return err
}

func (c *checkRun) newReport(diags []analysis.Diagnostic) Report {
	return Report{
		ToolVersion:  c.e.version.tool(),
		JAXVersion:   c.set.jaxVersions(),
		FilesChecked: len(c.files),
		Diagnostics:  diags,
		Display:      c.display,
		Rules:        ruleInfos(),
		WorkDir:      c.e.workDir,
	}
}

// display is the printed form of a path (spec.md §2).
func (c *checkRun) display(abs string) string {
	return workspace.Display(abs, c.e.workDir)
}

// writeText prints the findings and the summary line. Color only on a
// terminal, and never when NO_COLOR is set (https://no-color.org).
func (c *checkRun) writeText(r Report) error {
	color := c.e.stdoutTTY && c.e.getenv("NO_COLOR") == ""
	if err := WriteText(c.e.stdout, r, color); err != nil {
		return err
	}
	safe, unsafe := analysis.FixableCounts(r.Diagnostics)
	return WriteTextSummary(c.e.stdout, r, safe, unsafe)
}

// printNotes prints syntax-error notes on stderr, like a compiler's notes:
// they explain a gap in the analysis and never change the exit code.
func (c *checkRun) printNotes(notes []analysis.Diagnostic) {
	for _, n := range notes {
		fmt.Fprintf(c.e.stderr, "%s:%d:%d: note: %s\n", c.display(n.File), n.Pos.Line, n.Pos.Column, n.Message)
	}
}

// printVerbose tells, on stderr, which settings and JAX version each group
// of files used and why (spec.md §5), and how long the run took.
func (c *checkRun) printVerbose() {
	if !c.f.verbose {
		return
	}
	w := c.e.stderr
	for _, g := range c.set.groups {
		where := "no .pallas-ls.toml or [tool.pallas-ls] found (defaults)"
		if g.cfg.Path != "" {
			where = c.display(g.cfg.Path)
		}
		if len(c.set.groups) > 1 {
			where += fmt.Sprintf(" (%s)", textPlural(len(g.files), "file"))
		}
		fmt.Fprintf(w, "pallas-ls: settings: %s\n", where)
		fmt.Fprintf(w, "pallas-ls: jax version %s (%s)\n", g.version.Version, g.version.Reason)
		if g.platform != "" {
			fmt.Fprintf(w, "pallas-ls: platform %s for kernels without markers of their own (%s)\n", g.platform, g.platformWhy)
		}
	}
	c.printLabels()
	elapsed := time.Since(c.start).Round(time.Millisecond)
	fmt.Fprintf(w, "pallas-ls: checked %s in %v\n", textPlural(len(c.files), "file"), elapsed)
}

// printLabels prints, for -v, the context label of every kernel call and
// shard_map (analysis.ContextLabels): what the editor shows as inlay hints
// or code lenses, one line each, sorted by file and position.
func (c *checkRun) printLabels() {
	for _, l := range c.labels {
		fmt.Fprintf(c.e.stderr, "pallas-ls: context %s:%d:%d: %s: %s\n",
			c.display(l.File), l.Pos.Line, l.Pos.Column, l.Kind, l.Text)
	}
}
