package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
)

// report prints the results as tables, or as one JSON document.
func (b *bench) report(w io.Writer) error {
	if b.o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"host": b.info, "binary": b.binDesc(), "results": b.results})
	}
	fmt.Fprintf(w, "pallas-ls benchmark: %s\nbinary: %s\n", b.info, b.binDesc())
	for _, r := range b.results {
		b.printSize(w, r)
	}
	if len(b.results) > 1 {
		printGrowth(w, b.results)
	}
	return nil
}

func (b *bench) binDesc() string {
	if b.built {
		return "built from ./cmd/pallas-ls"
	}
	return b.bin
}

func (b *bench) printSize(w io.Writer, r *sizeResult) {
	if r.Tree != "" {
		fmt.Fprintf(w, "\ntree: %s: %s lines in %d .py files (%.1f MB), %d%% in files that import jax; read in %.2f s",
			r.Tree, commas(r.Lines), r.PyFiles, float64(r.Bytes)/1e6, pct(r.JAXLines, max(r.Lines, 1)), r.GenSeconds)
	} else {
		fmt.Fprintf(w, "\ncorpus: %s lines in %d .py files (%.1f MB), %d%% in files that import jax; hot file %s lines; generated in %.2f s",
			commas(r.Lines), r.PyFiles, float64(r.Bytes)/1e6, pct(r.JAXLines, r.Lines), commas(r.HotLines), r.GenSeconds)
	}
	if r.Dir != "" {
		fmt.Fprintf(w, "; kept in %s", r.Dir)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "measurement\twall\tlines/s\tnotes")
	fmt.Fprintf(tw, "parse only, libc allocator (floor, %d workers)\t%s\t%s\t%d syntax errors\n",
		r.Parse.Workers, secs(r.Parse.Seconds), rate(r.Parse.LinesPerSec), r.Parse.SyntaxErrors)
	fmt.Fprintf(tw, "parse only, arena (as check parses)\t%s\t%s\t\n",
		secs(r.ParseArena.Seconds), rate(r.ParseArena.LinesPerSec))
	checkRow(tw, "check --no-cache (cold)", r.Cold)
	checkRow(tw, "check, cache fill", r.Fill)
	checkRow(tw, "check (warm)", r.Warm)
	if e := r.Editor; e != nil {
		editorRows(tw, r, e)
	}
	if e := r.EditorVs; e != nil {
		fmt.Fprintf(tw, "-vs %s, same edits interleaved:\t\t\t\n", r.VsBinary)
		editorRows(tw, r, e)
	}
	tw.Flush()
	fmt.Fprintf(w, "ratios: cold/parse-only %s, warm/cold %s\n", ratio(r.ColdOverParse, "x"), ratio(r.WarmOverCold, ""))
	for _, e := range r.Errors {
		fmt.Fprintf(w, "ERROR: %s\n", e)
	}
}

func checkRow(w io.Writer, name string, c *checkRun) {
	if c == nil {
		fmt.Fprintf(w, "%s\tfailed\t\t\n", name)
		return
	}
	fmt.Fprintf(w, "%s\t%s\t%s\tpeak RSS %.0f MB; %d files; %s\n", name, secs(c.Seconds), rate(c.LinesPerSec),
		c.PeakRSSMB, c.Files, findings(c.Findings))
}

// editorRows prints what the session measured; a step that did not run
// (the session failed earlier) prints nothing.
func editorRows(w io.Writer, r *sizeResult, e *editorResult) {
	if e.ReadySeconds > 0 {
		idx := "no indexing $/progress seen"
		if e.IndexSeconds > 0 {
			idx = fmt.Sprintf("indexing $/progress ended at %s; first publish at %s", secs(e.IndexSeconds), secs(e.FirstDiagSeconds))
		}
		fmt.Fprintf(w, "editor: initialized -> workspace diagnostics\t%s\t%s\t%s; RSS after %.0f MB\n",
			secs(e.ReadySeconds), rate(float64(r.Lines)/e.ReadySeconds), idx, e.RSSAfterIndexMB)
		fmt.Fprintf(w, "editor: initialize -> first publishDiagnostics\t%s\t\t\n", secs(e.FirstDiagAfterInit))
	}
	if e.OpenSeconds > 0 {
		fmt.Fprintf(w, "editor: didOpen %s-line file -> results\t%s\t\t%d findings in it\n", commas(r.HotLines), secs(e.OpenSeconds), e.HotFindings)
	}
	if e.Hover.N > 0 {
		fmt.Fprintf(w, "editor: hover on a kernel call\tp50 %s\t\tp95 %s; %d hovers, %d empty\n",
			ms(e.Hover.MedianMS), ms(e.Hover.P95MS), e.Hover.N, e.HoverEmpty)
	}
	if e.Edits.N+e.Edits.Timeouts > 0 {
		fmt.Fprintf(w, "editor: edit -> publishDiagnostics\tp50 %s\t%s\tp95 %s, max %s; %d edits, %d timeouts\n",
			ms(e.Edits.MedianMS), rate(float64(r.Lines)/(e.Edits.MedianMS/1000)), ms(e.Edits.P95MS), ms(e.Edits.MaxMS), e.Edits.N, e.Edits.Timeouts)
	}
	if e.Anywhere.N > 0 {
		fmt.Fprintf(w, "editor: one-line code edit anywhere -> results\tp50 %s\t\tp95 %s, max %s; %d edits, %d within %s\n",
			ms(e.Anywhere.MedianMS), ms(e.Anywhere.P95MS), ms(e.Anywhere.MaxMS), e.Anywhere.N, e.AnywhereFast, ms(float64(anywhereFast.Milliseconds())))
	}
	if e.Tree.N > 0 {
		fmt.Fprintf(w, "editor: one-line edit ` + 0` at random lines -> fresh results\tp50 %s\t\tp90 %s, p99 %s, max %s; %d edits, %d within %s\n",
			ms(e.Tree.MedianMS), ms(e.Tree.P90MS), ms(e.Tree.P99MS), ms(e.Tree.MaxMS), e.Tree.N, e.TreeFast, ms(float64(anywhereFast.Milliseconds())))
	}
	if e.CPUEndSeconds > 0 {
		fmt.Fprintf(w, "editor: server CPU (user+sys)\t\t\t%.2f s to the first diagnostics, %.2f s for the edits\n", e.CPUReadySeconds, e.CPUEndSeconds-e.CPUReadySeconds)
	}
	if e.RSSEndMB > 0 {
		fmt.Fprintf(w, "editor: server memory at the end\t\t\tRSS %.0f MB, peak (VmHWM) %.0f MB\n", e.RSSEndMB, e.PeakRSSMB)
	}
}

// printGrowth shows time against size; constant seconds per 100k lines
// means linear growth.
func printGrowth(w io.Writer, rs []*sizeResult) {
	fmt.Fprintln(w, "\ngrowth (time vs lines; s/100k lines constant = linear):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "lines\tfiles\tparse s\tcold s\twarm s\tcold s/100k\tcold RSS MB\tready s\tedit p50 ms\tedit p95 ms\tanywhere p50 ms\tanywhere p95 ms\tserver RSS MB\t")
	for _, r := range rs {
		per := 100000 / float64(r.Lines)
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%s\t%s\t%s\t%s\t", commas(r.Lines), r.PyFiles, r.Parse.Seconds,
			f3(r.Cold, func(c *checkRun) float64 { return c.Seconds }), f3(r.Warm, func(c *checkRun) float64 { return c.Seconds }),
			f3(r.Cold, func(c *checkRun) float64 { return c.Seconds * per }), f0(r.Cold))
		if e := r.Editor; e != nil {
			fmt.Fprintf(tw, "%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t\n", e.ReadySeconds, e.Edits.MedianMS, e.Edits.P95MS,
				e.Anywhere.MedianMS, e.Anywhere.P95MS, e.RSSAfterIndexMB)
		} else {
			fmt.Fprint(tw, "-\t-\t-\t-\t-\t-\t\n")
		}
	}
	tw.Flush()
}

func f3(c *checkRun, f func(*checkRun) float64) string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", f(c))
}

func f0(c *checkRun) string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f", c.PeakRSSMB)
}

func findings(m map[string]int) string {
	if len(m) == 0 {
		return "no findings"
	}
	var codes []string
	for c := range m {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%s x%d", c, m[c]))
	}
	return strings.Join(parts, ", ")
}

func secs(s float64) string { return fmt.Sprintf("%.3f s", s) }
func ms(v float64) string   { return fmt.Sprintf("%.1f ms", v) }

// rate formats a lines/s figure; "-" when there was nothing to divide by.
func rate(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) || v <= 0 {
		return "-"
	}
	return commas(int(v + 0.5))
}
func pct(a, b int) int { return int(100*float64(a)/float64(b) + 0.5) }

func ratio(v float64, unit string) string {
	if v == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f%s", v, unit)
}
