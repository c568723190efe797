package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// The real engine behind the server, on a rule fixture: the finding is
// published, hovered with the rule's title, and fixable.
func TestRealEngineFixture(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "analysis", "rules", "testdata", "PAL101", "direct_top_level", "ring.py"))
	if err != nil {
		t.Skip("fixture not available:", err)
	}
	tc := session(t, map[string]string{"ring.py": string(src)}, clientOpts{}, withChecker(analysis.NewEngine()))
	p := tc.waitDiags("ring.py", 1, nil)
	d := p.Diagnostics[0]
	if d.Code != protocol.String("PAL101") {
		t.Fatalf("published %v, want PAL101", d.Code)
	}
	text, _ := hoverAtText(t, tc, "ring.py", d.Range.Start.Line, d.Range.Start.Character)
	a, _ := analysis.Lookup(rules.All(), "PAL101")
	if !strings.Contains(text, escapeMarkdown(a.Doc.Title)) || !strings.Contains(text, "JAX") {
		t.Errorf("hover lacks the rule title or the JAX version:\n%s", text)
	}
	actions := codeActions(tc, "ring.py", d.Range)
	if actionTitled(actions, "Ignore PAL101 for this line") == nil {
		t.Errorf("no ignore action among %d", len(actions))
	}
}
