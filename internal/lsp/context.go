package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

// The SPMD context in the editor: context labels (analysis.ContextLabels,
// the same lines `check -v` prints) as inlay hints or code lenses, the
// call hierarchy from a kernel call up its witness paths to the entries,
// and "go to the shard_map" (definition) from a kernel call to the binder
// of its context. All answer from the newest check, like hovers.

// labelMode is the contextLabels setting that applies to path.
func (s *server) labelMode(res *results, path string) string {
	p := s.proj
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.settings.forDir(res.groupOf[path]).ContextLabels
}

// labelAnchor is where a label is shown: the end of its call's first line.
func labelAnchor(m *pyparse.Mapper, l analysis.ContextLabel) int {
	return m.LineEnd(m.Line(l.Span.Start))
}

// InlayHint shows the context labels of the requested range at the end of
// each call's first line.
func (s *server) InlayHint(ctx context.Context, p *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	res, src, err := s.currentSource(ctx, p.TextDocument.URI)
	if src == nil {
		return nil, err
	}
	cc := s.capsSnapshot()
	out := []protocol.InlayHint{}
	if hints, _ := labelChannels(s.labelMode(res, src.path), cc); !hints {
		return out, nil
	}
	m := src.mapper()
	span := toSpan(m, p.Range, cc.utf8)
	for _, l := range res.labels()[src.path] {
		at := labelAnchor(m, l)
		if at < span.Start || at > span.End {
			continue
		}
		out = append(out, protocol.InlayHint{
			Position:    toPosition(m, at, cc.utf8),
			Label:       protocol.String(labelText(l)),
			PaddingLeft: ptr(true),
			Tooltip:     protocol.String(labelTooltip(l)),
		})
	}
	return out, nil
}

// labelText is what a hint or lens shows. Kernel labels stand alone;
// shard_map labels name what they describe.
func labelText(l analysis.ContextLabel) string {
	if l.Kind == "shard_map" {
		return "shard_map: " + l.Text
	}
	return l.Text
}

func labelTooltip(l analysis.ContextLabel) string {
	if l.Kind == "shard_map" {
		return "pallas-ls: the mesh axes this shard_map makes manual and leaves automatic, for the kernel calls it reaches"
	}
	return "pallas-ls: backend, communication and the SPMD contexts this kernel call is reached in (call hierarchy: how)"
}

// CodeLens shows the same labels above the calls, for clients without
// inlay hints (Neovim before 0.10). The lenses carry no command: they are
// read, not clicked.
func (s *server) CodeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	res, src, err := s.currentSource(ctx, p.TextDocument.URI)
	if src == nil {
		return nil, err
	}
	cc := s.capsSnapshot()
	out := []protocol.CodeLens{}
	if _, lenses := labelChannels(s.labelMode(res, src.path), cc); !lenses {
		return out, nil
	}
	m := src.mapper()
	for _, l := range res.labels()[src.path] {
		start := l.Span.Start
		out = append(out, protocol.CodeLens{
			Range:   toRange(m, pyparse.Span{Start: start, End: labelAnchor(m, l)}, cc.utf8),
			Command: protocol.Command{Title: labelText(l)},
		})
	}
	return out, nil
}

// labelsKey identifies every label of a run, to refresh the client's
// hints and lenses only when one changed.
func labelsKey(res *results) string {
	h := fnv.New64a()
	labels := res.labels()
	for _, path := range sortedKeys(labels) {
		for _, l := range labels[path] {
			fmt.Fprintf(h, "%s:%d:%d:%s:%s\n", path, l.Span.Start, l.Span.End, l.Kind, l.Text)
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// refreshLabels asks the client to fetch hints and lenses again after a
// check changed the labels: they follow the findings. Clients that cannot
// be asked fetch them on their own (on edits, on opening a file), so no
// labels are made for them here.
func (s *server) refreshLabels(res *results) {
	cc := s.capsSnapshot()
	if !cc.inlayRefresh && !cc.codeLensRefresh {
		return
	}
	key := labelsKey(res)
	if key == s.diag.labels {
		return
	}
	s.diag.labels = key
	if cc.inlayRefresh {
		s.goClient("workspace/inlayHint/refresh", s.client.InlayHintRefresh, nil)
	}
	if cc.codeLensRefresh {
		s.goClient("workspace/codeLens/refresh", s.client.CodeLensRefresh, nil)
	}
}

// kernelAt finds the kernel call whose site covers off.
func kernelAt(res *results, path string, off int) (analysis.KernelCallInfo, bool) {
	for _, k := range res.kernels[path] {
		if covers(k.Span, off) || off == k.Span.End {
			return k, true
		}
	}
	return analysis.KernelCallInfo{}, false
}

// Definition at a kernel call goes to the binders of its contexts: the
// shard_map that makes its axes manual, or the jit-decorated function the
// path starts in. Elsewhere it answers nothing, leaving Python's own
// definitions to the other servers.
func (s *server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	res, src, err := s.currentSource(ctx, p.TextDocument.URI)
	if src == nil {
		return nil, err
	}
	cc := s.capsSnapshot()
	k, ok := kernelAt(res, src.path, toOffset(src.mapper(), p.Position, cc.utf8))
	if !ok {
		return nil, nil
	}
	locs := protocol.LocationSlice{}
	seen := map[string]bool{}
	for _, r := range k.Reaches {
		if r.Binder == nil {
			continue
		}
		key := fmt.Sprintf("%s:%d", r.Binder.File, r.Binder.Span.Start)
		if seen[key] {
			continue
		}
		seen[key] = true
		locs = append(locs, protocol.Location{URI: res.uriOf(r.Binder.File), Range: locRange(*r.Binder, res.mapper, cc.utf8)})
	}
	if len(locs) == 0 {
		return nil, nil
	}
	return locs, nil
}

// uriOf is the URI a file is known by: the client's own for open buffers.
func (r *results) uriOf(path string) uri.URI {
	if src, ok := r.snap.files[path]; ok && src.open {
		return src.uri
	}
	return fileURI(path)
}

// hierarchyRef is the data of a call hierarchy item: the kernel call
// (file, offset and kernel name as the check that made the item saw them),
// the context (reach) and the step of its witness path; reach -1 is the
// kernel call itself, and step len(path) the entry.
type hierarchyRef struct {
	File   string `json:"file"`
	Start  int    `json:"start"`
	Kernel string `json:"kernel"`
	Reach  int    `json:"reach"`
	Step   int    `json:"step"`
}

// PrepareCallHierarchy answers at a kernel call with the call itself; its
// incoming calls are the witness paths up to the entries.
func (s *server) PrepareCallHierarchy(ctx context.Context, p *protocol.CallHierarchyPrepareParams) ([]protocol.CallHierarchyItem, error) {
	res, src, err := s.currentSource(ctx, p.TextDocument.URI)
	if src == nil {
		return nil, err
	}
	cc := s.capsSnapshot()
	k, ok := kernelAt(res, src.path, toOffset(src.mapper(), p.Position, cc.utf8))
	if !ok {
		return nil, nil
	}
	rng := locRange(k.Location, res.mapper, cc.utf8)
	return []protocol.CallHierarchyItem{{
		Name:           "kernel " + k.Kernel,
		Kind:           protocol.SymbolKindFunction,
		Detail:         ptr(k.Label),
		URI:            res.uriOf(k.File),
		Range:          rng,
		SelectionRange: rng,
		Data:           encodeRef(hierarchyRef{File: k.File, Start: k.Span.Start, Kernel: k.Kernel, Reach: -1, Step: -1}),
	}}, nil
}

func encodeRef(r hierarchyRef) protocol.LSPAny {
	raw, _ := json.Marshal(r) // plain fields: cannot fail
	return protocol.LSPAny(raw)
}

// IncomingCalls walks one step up: from the kernel call to the first step
// of each context's witness path, from a step to the next, and from the
// last step to the entry (tests, main blocks, module top levels), which
// has no callers.
func (s *server) IncomingCalls(ctx context.Context, p *protocol.CallHierarchyIncomingCallsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	var ref hierarchyRef
	if err := json.Unmarshal(p.Item.Data, &ref); err != nil || ref.File == "" {
		return nil, nil // not our item, or from an older server
	}
	res, err := s.diag.await(ctx)
	if err != nil {
		return nil, err
	}
	var k analysis.KernelCallInfo
	found := false
	for _, c := range res.kernels[ref.File] {
		if c.Span.Start == ref.Start && c.Kernel == ref.Kernel {
			k, found = c, true
			break
		}
	}
	out := []protocol.CallHierarchyIncomingCall{}
	if !found {
		return out, nil // edited away since the item was made
	}
	utf8 := s.capsSnapshot().utf8
	if ref.Reach < 0 {
		for i := range k.Reaches {
			out = append(out, s.incoming(res, k, i, 0, utf8))
		}
		return out, nil
	}
	if ref.Reach >= len(k.Reaches) || ref.Step < 0 || ref.Step >= len(k.Reaches[ref.Reach].Path) {
		return out, nil // the entry: nothing calls it
	}
	return append(out, s.incoming(res, k, ref.Reach, ref.Step+1, utf8)), nil
}

// incoming is the call at step of reach i's path, or its entry when step
// is past the path.
func (s *server) incoming(res *results, k analysis.KernelCallInfo, i, step int, utf8 bool) protocol.CallHierarchyIncomingCall {
	r := k.Reaches[i]
	ref := hierarchyRef{File: k.File, Start: k.Span.Start, Kernel: k.Kernel, Reach: i, Step: step}
	var loc analysis.Location
	var name string
	if step < len(r.Path) {
		loc, name = r.Path[step].Location, strings.TrimPrefix(r.Path[step].Message, "via ")
	} else {
		loc = k.Location
		if n := len(r.Path); n > 0 {
			loc = r.Path[n-1].Location
		}
		name = r.Entry
		if name == "" {
			name = "entry"
		}
	}
	rng := locRange(loc, res.mapper, utf8)
	return protocol.CallHierarchyIncomingCall{
		From: protocol.CallHierarchyItem{
			Name:           name,
			Kind:           protocol.SymbolKindFunction,
			Detail:         ptr(r.Label),
			URI:            res.uriOf(loc.File),
			Range:          rng,
			SelectionRange: rng,
			Data:           encodeRef(ref),
		},
		FromRanges: []protocol.Range{rng},
	}
}
