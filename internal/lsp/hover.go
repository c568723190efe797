package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

// Hover explains the diagnostics and kernel calls under the cursor: what
// the rule says, the JAX error the configured version will raise, which
// version that is and why, and the witness path as links.
func (s *server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	res, src, err := s.currentSource(ctx, p.TextDocument.URI)
	if src == nil {
		return nil, err
	}
	cc := s.capsSnapshot()
	off := toOffset(src.mapper(), p.Position, cc.utf8)
	var parts []string
	var first *pyparse.Span
	for _, d := range res.diags[src.path] {
		if covers(d.Span, off) {
			parts = append(parts, s.diagnosticHover(res, d, cc.markdown))
			first = firstSpan(first, d.Span)
		}
	}
	for _, k := range res.kernels[src.path] {
		if covers(k.Span, off) {
			parts = append(parts, kernelHover(k, cc.markdown))
			first = firstSpan(first, k.Span)
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	kind := protocol.MarkupKindPlainText
	if cc.markdown {
		kind = protocol.MarkupKindMarkdown
	}
	return &protocol.Hover{
		Contents: &protocol.MarkupContent{Kind: kind, Value: strings.Join(parts, "\n\n---\n\n")},
		Range:    ptr(toRange(src.mapper(), *first, cc.utf8)),
	}, nil
}

// covers treats an empty span as covering its own offset, so zero-width
// findings can still be hovered.
func covers(s pyparse.Span, off int) bool {
	return s.Contains(off) || (s.Len() == 0 && off == s.Start)
}

func firstSpan(cur *pyparse.Span, s pyparse.Span) *pyparse.Span {
	if cur == nil {
		return &s
	}
	return cur
}

// hoverText builds markdown or, for clients without it, plain text. Paths
// are shown relative to base (the file's workspace folder).
type hoverText struct {
	md   bool
	base string
	b    strings.Builder
}

func (h *hoverText) line(s string) { h.b.WriteString(s + "\n") }

func (h *hoverText) strong(s string) string {
	if h.md {
		return "**" + escapeMarkdown(s) + "**"
	}
	return s
}

func (h *hoverText) text(s string) string {
	if h.md {
		return escapeMarkdown(s)
	}
	return s
}

func (h *hoverText) block(s string) string {
	if h.md {
		return escapeMarkdownBlock(s)
	}
	return s
}

func (h *hoverText) link(loc analysis.Location) string {
	name := loc.File
	if rel, err := filepath.Rel(h.base, loc.File); err == nil && h.base != "" && !strings.HasPrefix(rel, "..") {
		name = rel
	}
	label := fmt.Sprintf("%s:%d", name, loc.Pos.Line)
	if h.md {
		return markdownLink(loc, label)
	}
	return label
}

func (s *server) diagnosticHover(res *results, d analysis.Diagnostic, md bool) string {
	h := &hoverText{md: md, base: res.groupOf[d.File]}
	title := d.Name
	if t := s.cfg.ruleTitle(d.Code); t != "" {
		title = t
	}
	h.line(h.strong(d.Code+" "+title) + " (" + d.Severity.String() + ")")
	h.line("")
	h.line(h.text(d.Message))
	if d.Detail != "" {
		h.line("")
		h.line(h.block(d.Detail))
	}
	if opts := res.options(d.File); !opts.JAXVersion.IsZero() && !strings.Contains(d.Detail, opts.JAXVersion.String()) {
		h.line("")
		h.line(h.text(fmt.Sprintf("JAX version %s (%s)", opts.JAXVersion, opts.JAXVersionReason)))
	}
	if len(d.Related) > 0 {
		h.line("")
		h.line(h.strong("Witness path"))
		for i, r := range d.Related {
			h.line(fmt.Sprintf("%d. %s %s", i+1, h.link(r.Location), h.text(r.Message)))
		}
	}
	h.line("")
	if md {
		h.line("[" + d.Code + " documentation](" + ruleDocURL(d.Code) + ")")
	} else {
		h.line(d.Code + " documentation: " + ruleDocURL(d.Code))
	}
	return strings.TrimSpace(h.b.String())
}

func kernelHover(k analysis.KernelCallInfo, md bool) string {
	h := &hoverText{md: md}
	h.line(h.strong("Pallas kernel call: "+k.Kernel) + " (backend: " + h.text(k.Backend) + ")")
	if k.Target != "" {
		h.line("")
		h.line(h.text("Taken to run on " + k.Target))
	}
	h.line("")
	if k.Communication != "" {
		h.line(h.text("Communicates with other devices: " + k.Communication))
	} else {
		h.line("Local kernel (no inter-device communication)")
	}
	if len(k.Contexts) > 0 {
		h.line("")
		h.line(h.strong("Reached in"))
		for _, c := range k.Contexts {
			h.line("- " + h.text(c))
		}
	}
	return strings.TrimSpace(h.b.String())
}
