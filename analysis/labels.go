package analysis

import (
	"sort"
	"strings"

	"github.com/pallas-ls/pallas-ls/lowering"
)

// Context labels: one short line per kernel call and per shard_map saying
// what the analysis concluded about where the code runs ("TPU ·
// communicates on x · shard_map(x manual), multi-device jit"). They are
// read-only renderings of the facts (KernelCall, Reach), made once per
// fact with its hover text, so that every front end (`check -v`, the
// editor's inlay hints and code lenses) prints the same words.

// ReachInfo is one context a kernel call is reached in, for navigation:
// where its witness path leads and which binder makes the context.
type ReachInfo struct {
	// Kind is the context class: "eager-single", "jit-multi",
	// "shard-map-full", "shard-map-partial", "pmap" or "unknown".
	Kind string
	// Label is the context in a few words ("shard_map(x manual)").
	Label string
	// Entry describes where the path starts ("module top level of train").
	Entry string
	// Path is the witness path, nearest call first; its last element is
	// the call the entry makes.
	Path []Related
	// Binder is the shard_map that makes the axes manual or, under a
	// multi-device jit, the jit decorator of the function nearest the
	// entry; nil when neither is known.
	Binder *Location
	// Manual and Auto are the mesh axes made manual and left automatic
	// inside a shard_map, when AxesKnown (an empty list is nil, so that a
	// result read back from the cache equals a fresh one).
	Manual, Auto []string
	AxesKnown    bool
}

// ContextLabel is a label anchored at a call: a kernel call or a shard_map.
type ContextLabel struct {
	Location
	// Kind is "kernel" or "shard_map".
	Kind string
	Text string
}

// labelSep separates the parts of a label.
const labelSep = " · "

// reachInfo renders one Reach for navigation and labels.
func reachInfo(r Reach) ReachInfo {
	ri := ReachInfo{Kind: r.Kind.String(), Entry: r.Entry, Path: r.Path}
	if r.ShardMap != nil {
		loc := *r.ShardMap
		ri.Binder = &loc
	} else if r.Kind == lowering.CtxJitMulti && r.JitDef != nil && r.JitDeco != nil && r.JitDef.File != nil {
		loc := Locate(r.JitDef.File, r.JitDeco.Span)
		ri.Binder = &loc
	}
	switch r.Kind {
	case lowering.CtxShardMapFull, lowering.CtxShardMapPartial:
		ri.Manual, ri.Auto = splitAxes(r.MeshAxes, r.Missing)
		ri.AxesKnown = r.MeshAxes != nil
	}
	ri.Label = reachLabel(r, ri)
	return ri
}

// splitAxes divides a mesh's axes into manual and automatic ones.
func splitAxes(mesh, missing []string) (manual, auto []string) {
	isAuto := map[string]bool{}
	for _, a := range missing {
		isAuto[a] = true
	}
	for _, a := range mesh {
		if isAuto[a] {
			auto = append(auto, a)
		} else {
			manual = append(manual, a)
		}
	}
	return manual, auto
}

// reachLabel is a context in a few words.
func reachLabel(r Reach, ri ReachInfo) string {
	switch r.Kind {
	case lowering.CtxEagerSingle:
		return "outside shard_map"
	case lowering.CtxJitMulti:
		return "multi-device jit"
	case lowering.CtxShardMapFull, lowering.CtxShardMapPartial:
		return "shard_map(" + axesText(ri.AxesKnown, ri.Manual, ri.Auto) + ")"
	case lowering.CtxPmap:
		return "pmap"
	}
	if r.Library {
		return "no caller in the workspace"
	}
	return "unknown context"
}

// axesText says which axes are manual and which automatic: "x manual",
// "x manual, y auto", or "axes unknown".
func axesText(known bool, manual, auto []string) string {
	if !known {
		return "axes unknown"
	}
	var parts []string
	if len(manual) > 0 {
		parts = append(parts, strings.Join(manual, ",")+" manual")
	}
	if len(auto) > 0 {
		parts = append(parts, strings.Join(auto, ",")+" auto")
	}
	if len(parts) == 0 {
		return "no mesh axes"
	}
	return strings.Join(parts, ", ")
}

// unknownBackendLabel stands for the backend of a kernel without markers
// of its own until the run's platform replaces it (report.go: withTargets).
const unknownBackendLabel = "backend unknown"

// kernelLabel is a kernel call's label: backend, communication, contexts.
func kernelLabel(f *KernelCall, reaches []ReachInfo) string {
	backend := strings.ToUpper(f.Backend.String())
	if f.Backend == lowering.BackendUnknown {
		backend = unknownBackendLabel
	}
	parts := []string{backend, commLabel(f)}
	var ctxs []string
	for _, r := range reaches {
		if !containsString(ctxs, r.Label) {
			ctxs = append(ctxs, r.Label)
		}
	}
	if len(ctxs) == 0 {
		ctxs = append(ctxs, "not reached")
	}
	parts = append(parts, strings.Join(ctxs, ", "))
	return strings.Join(parts, labelSep)
}

// commLabel says whether and over which axes the kernel communicates.
func commLabel(f *KernelCall) string {
	if len(f.Ops) == 0 {
		if f.MaybeComm {
			return "may communicate"
		}
		return "local"
	}
	var axes []string
	for _, op := range f.Ops {
		for _, a := range op.Axes {
			if !containsString(axes, a) {
				axes = append(axes, a)
			}
		}
	}
	if len(axes) == 0 {
		return "communicates"
	}
	sort.Strings(axes)
	return "communicates on " + strings.Join(axes, ",")
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ContextLabels lists the labels of a run: one per kernel call, and one per
// shard_map that reaches a kernel call (its manual and automatic axes),
// sorted by file and offset. A shard_map reached under different meshes
// lists each reading, separated by " | ".
func ContextLabels(calls []KernelCallInfo) []ContextLabel {
	var out []ContextLabel
	type smKey struct {
		file  string
		start int
	}
	sm := map[smKey]int{} // -> index in out
	for _, k := range calls {
		out = append(out, ContextLabel{Location: k.Location, Kind: "kernel", Text: k.Label})
		for _, r := range k.Reaches {
			if r.Kind != lowering.CtxShardMapFull.String() && r.Kind != lowering.CtxShardMapPartial.String() || r.Binder == nil {
				continue
			}
			text := axesText(r.AxesKnown, r.Manual, r.Auto)
			key := smKey{r.Binder.File, r.Binder.Span.Start}
			if i, ok := sm[key]; ok {
				if !containsString(strings.Split(out[i].Text, " | "), text) {
					out[i].Text += " | " + text
				}
				continue
			}
			sm[key] = len(out)
			out = append(out, ContextLabel{Location: *r.Binder, Kind: "shard_map", Text: text})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		return a.Kind < b.Kind
	})
	return out
}
