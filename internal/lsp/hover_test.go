package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func hoverAtText(t *testing.T, tc *testClient, name string, line, char uint32) (string, *protocol.Hover) {
	t.Helper()
	h, err := tc.server.Hover(tc.ctx(), hoverAt(tc, name, line, char))
	if err != nil {
		t.Fatalf("hover: %v", err)
	}
	if h == nil {
		return "", nil
	}
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok {
		t.Fatalf("hover contents are a %T", h.Contents)
	}
	return mc.Value, h
}

func TestHoverOnDiagnostic(t *testing.T) {
	titles := withRuleTitles(func(code string) string {
		if code == "PAL101" {
			return "Communicating kernel outside shard_map"
		}
		return ""
	})
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{}, titles)
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
	text, h := hoverAtText(t, tc, "main.py", 2, 4)
	for _, want := range []string{
		"**PAL101 Communicating kernel outside shard\\_map** (error)",
		"runs outside shard\\_map",
		"NotImplementedError",                                             // Detail: the predicted error
		"JAX version 0.11 (default",                                       // the version and where it came from
		"(" + string(tc.uri("kernels.py")) + "#L1) communicating op here", // witness link
		"rules.md#pal101",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("hover lacks %q:\n%s", want, text)
		}
	}
	if h.Range == nil || h.Range.Start != (protocol.Position{Line: 2}) {
		t.Errorf("hover range = %+v, want the diagnostic's", h.Range)
	}
	if !strings.Contains(text, "Pallas kernel call: comm\\_kernel") || !strings.Contains(text, "jax.jit without shard\\_map") {
		t.Errorf("hover lacks the kernel call facts:\n%s", text)
	}
	if text, _ := hoverAtText(t, tc, "main.py", 0, 3); text != "" {
		t.Errorf("hover away from findings = %q, want none", text)
	}
}

func TestHoverPlainText(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{plainText: true})
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
	text, h := hoverAtText(t, tc, "main.py", 2, 0)
	if mc := h.Contents.(*protocol.MarkupContent); mc.Kind != protocol.MarkupKindPlainText {
		t.Errorf("kind = %s for a plain-text client", mc.Kind)
	}
	if strings.Contains(text, "**") || !strings.Contains(text, "\n2. kernels.py:1 communicating op here") {
		t.Errorf("plain-text hover:\n%s", text)
	}
}

func TestHoverUTF8Positions(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{utf8: true})
	tc.open("main.py", "s = \"😀\"; comm_call(x)\n")
	tc.waitDiags("main.py", 1, nil)
	// Byte column 12 is the "c" of comm_call; in UTF-16 it would be 10.
	if text, _ := hoverAtText(t, tc, "main.py", 0, 12); !strings.Contains(text, "PAL101") {
		t.Errorf("hover at byte column 12 found nothing")
	}
	if text, _ := hoverAtText(t, tc, "main.py", 0, 10); text != "" {
		t.Errorf("hover at byte column 10 (inside the string) = %q", text)
	}
}

func TestEscapeMarkdown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"kernel `ring_kernel` under __init__", "kernel `ring_kernel` under \\_\\_init\\_\\_"},
		{"a*b [x] <module>", "a\\*b \\[x\\] \\<module\\>"},
		{"odd ` tick_x", "odd \\` tick\\_x"},
	}
	for _, tt := range tests {
		if got := escapeMarkdown(tt.in); got != tt.want {
			t.Errorf("escapeMarkdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	block := "Predicted error:\n\n    NameError: unbound axis_name `x`\n\nat jax/_src"
	want := "Predicted error:\n\n    NameError: unbound axis_name `x`\n\nat jax/\\_src"
	if got := escapeMarkdownBlock(block); got != want {
		t.Errorf("escapeMarkdownBlock = %q, want %q", got, want)
	}
}

// A hover about a file no check can hold (neither open nor indexed) is
// answered at once, while the first check of the workspace still runs: a
// workspace of / took the first check of 20,000 indexed files before,
// and the hover waited for it.
func TestHoverOfUnknownFileDoesNotWait(t *testing.T) {
	g := newGatedChecker()
	tc := session(t, map[string]string{"a.py": "x = 1\n"}, clientOpts{root: t.TempDir()}, withChecker(g))
	<-g.entered // the first check is held
	done := make(chan *protocol.Hover, 1)
	p := hoverAt(tc, "a.py", 0, 0)
	p.TextDocument.URI = uri.File(filepath.Join(t.TempDir(), "elsewhere.py"))
	go func() {
		h, _ := tc.server.Hover(tc.ctx(), p)
		done <- h
	}()
	select {
	case h := <-done:
		if h != nil {
			t.Errorf("hover of an unknown file: %+v, want none", h)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hover of an unknown file waited for the held check")
	}
	// A hover of an indexed file still waits for the fresh results.
	waited := make(chan struct{})
	go func() {
		tc.server.Hover(tc.ctx(), hoverAt(tc, "a.py", 0, 0))
		close(waited)
	}()
	select {
	case <-waited:
		t.Error("the hover of an indexed file did not wait for the held check")
	case <-time.After(300 * time.Millisecond):
	}
	close(g.release)
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("the hover of an indexed file never got its answer")
	}
}

// A workspace folder of / holds every absolute path (its prefix is "/",
// not "//"), so its files form one group, not one per directory.
func TestRootOfSlash(t *testing.T) {
	sep := string(filepath.Separator)
	for _, c := range []struct{ path, want string }{
		{sep + filepath.Join("usr", "lib", "x.py"), sep},
		{sep + "x.py", sep},
	} {
		if got := rootOf(c.path, []string{sep}); got != c.want {
			t.Errorf("rootOf(%q, [/]) = %q, want %q", c.path, got, c.want)
		}
	}
	if got := rootOf(filepath.Join(sep+"ab", "x.py"), []string{sep + "a"}); got != "" {
		t.Errorf("rootOf(/ab/x.py, [/a]) = %q, want none", got)
	}
}
