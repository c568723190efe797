package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
)

func codeActions(tc *testClient, name string, rng protocol.Range, only ...protocol.CodeActionKind) []*protocol.CodeAction {
	tc.t.Helper()
	p := &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri(name)}, Range: rng,
		Context: protocol.CodeActionContext{Only: only}}
	got, err := tc.server.CodeAction(tc.ctx(), p)
	if err != nil {
		tc.t.Fatalf("codeAction: %v", err)
	}
	var out []*protocol.CodeAction
	for _, a := range got {
		ca, ok := a.(*protocol.CodeAction)
		if !ok {
			tc.t.Fatalf("codeAction returned a %T", a)
		}
		out = append(out, ca)
	}
	return out
}

func actionTitled(actions []*protocol.CodeAction, title string) *protocol.CodeAction {
	for _, a := range actions {
		if a.Title == title {
			return a
		}
	}
	return nil
}

func cursor(line, char uint32) protocol.Range {
	p := protocol.Position{Line: line, Character: char}
	return protocol.Range{Start: p, End: p}
}

func TestQuickFixes(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
	actions := codeActions(tc, "main.py", cursor(2, 3))
	wrap := actionTitled(actions, "Wrap the call in jax.shard_map")
	if wrap == nil || wrap.IsPreferred == nil || !*wrap.IsPreferred || *wrap.Kind != protocol.CodeActionKindQuickFix {
		t.Fatalf("safe fix missing or not preferred: %+v\nactions: %d\nlog:\n%s", wrap, len(actions), tc.stderr.String())
	}
	edits := wrap.Edit.Changes[tc.uri("main.py")]
	if len(edits) != 1 || edits[0].NewText != "shard_map(comm_call)" || edits[0].Range.End.Character != 9 {
		t.Errorf("safe fix edits = %+v", edits)
	}
	if len(wrap.Diagnostics) != 1 || wrap.Diagnostics[0].Code != protocol.String("PAL101") {
		t.Errorf("fix does not name its diagnostic: %+v", wrap.Diagnostics)
	}
	if show := actionTitled(actions, "Show the mesh axes"); show == nil || show.IsPreferred != nil {
		t.Errorf("display-only fix = %+v, want offered and not preferred", show)
	}
	ignore := actionTitled(actions, "Ignore PAL101 for this line")
	if ignore == nil {
		t.Fatalf("no ignore action among %d actions", len(actions))
	}
	edit := ignore.Edit.Changes[tc.uri("main.py")][0]
	if edit.NewText != "  # pallas-ls: ignore[PAL101]" || edit.Range.Start != (protocol.Position{Line: 2, Character: 12}) {
		t.Errorf("ignore edit = %+v", edit)
	}
	if a := codeActions(tc, "main.py", cursor(0, 0), protocol.CodeActionKindQuickFix); len(a) != 0 {
		t.Errorf("actions away from the diagnostic: %d", len(a))
	}
}

func TestFixAllAppliesOnlySafeFixes(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", "comm_call(a)\nunsafe_call(b)\ncomm_call(c)\n")
	tc.waitDiags("main.py", 3, nil)
	actions := codeActions(tc, "main.py", cursor(0, 0), fixAllKind)
	if len(actions) != 1 || *actions[0].Kind != fixAllKind {
		t.Fatalf("fixAll request returned %+v", actions)
	}
	edits := actions[0].Edit.Changes[tc.uri("main.py")]
	if len(edits) != 2 || edits[0].Range.Start.Line != 0 || edits[1].Range.Start.Line != 2 {
		t.Fatalf("fixAll edits = %+v, want the two safe rewrites only", edits)
	}
	for _, e := range edits {
		if e.NewText != "shard_map(comm_call)" {
			t.Errorf("fixAll applied %q", e.NewText)
		}
	}
	if a := codeActions(tc, "main.py", cursor(0, 0), protocol.CodeActionKindSource); len(a) != 1 {
		t.Errorf("only=[source] returned %d actions, want the fixAll action", len(a))
	}
	if a := codeActions(tc, "main.py", cursor(1, 0), protocol.CodeActionKindQuickFix); actionTitled(a, "Risky rewrite") == nil || len(a) != 2 {
		t.Errorf("quickfix at the unsafe diagnostic = %d actions, want its fix and the ignore action", len(a))
	}
}

func TestIgnoreEdit(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"plain line", "x = comm_call(a)\n", "x = comm_call(a)  # pallas-ls: ignore[PAL101]\n"},
		{"trailing spaces", "comm_call(a)   \n", "comm_call(a)  # pallas-ls: ignore[PAL101]\n"},
		{"other comment kept", "comm_call(a)  # keep me\n", "comm_call(a)  # keep me  # pallas-ls: ignore[PAL101]\n"},
		{"merge", "comm_call(a)  # pallas-ls: ignore[PAL102]\n", "comm_call(a)  # pallas-ls: ignore[PAL102, PAL101]\n"},
		{"merge keeps reason", "comm_call(a)  # pallas-ls: ignore[PAL3*] -- legacy\n",
			"comm_call(a)  # pallas-ls: ignore[PAL3*, PAL101] -- legacy\n"},
		{"empty list", "comm_call(a)  # pallas-ls: ignore[]\n", "comm_call(a)  # pallas-ls: ignore[PAL101]\n"},
		{"backslash continuation", "    y = comm_call(a) + \\\n        1\n",
			"    # pallas-ls: ignore[PAL101]\n    y = comm_call(a) + \\\n        1\n"},
		{"crlf", "if x:\r\n    comm_call(a) \\\r\n    (b)\r\n", "if x:\r\n    # pallas-ls: ignore[PAL101]\r\n    comm_call(a) \\\r\n    (b)\r\n"},
		{"no final newline", "comm_call(a)", "comm_call(a)  # pallas-ls: ignore[PAL101]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := &source{path: "/p/a.py", text: []byte(tt.src)}
			line := src.mapper().Line(strings.Index(tt.src, "comm_call"))
			e := ignoreEdit(src, line, "PAL101")
			got, err := analysis.ApplyEdits(src.text, []analysis.TextEdit{e})
			if err != nil || string(got) != tt.want {
				t.Errorf("got %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}

func TestKindFilter(t *testing.T) {
	tests := []struct {
		only []protocol.CodeActionKind
		kind protocol.CodeActionKind
		want bool
	}{
		{nil, fixAllKind, true},
		{[]protocol.CodeActionKind{protocol.CodeActionKindSource}, fixAllKind, true},
		{[]protocol.CodeActionKind{protocol.CodeActionKindSourceFixAll}, fixAllKind, true},
		{[]protocol.CodeActionKind{protocol.CodeActionKindQuickFix}, fixAllKind, false},
		{[]protocol.CodeActionKind{"source.fix"}, fixAllKind, false},
		{[]protocol.CodeActionKind{protocol.CodeActionKindRefactor}, protocol.CodeActionKindQuickFix, false},
	}
	for _, tt := range tests {
		if got := wants(tt.only, tt.kind); got != tt.want {
			t.Errorf("wants(%v, %s) = %v, want %v", tt.only, tt.kind, got, tt.want)
		}
	}
}
