package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// rulesDocPath is docs/rules.md, generated from the rules' Doc values.
var rulesDocPath = filepath.Join("..", "..", "docs", "rules.md")

// TestRulesDocFresh fails when docs/rules.md no longer matches
// `pallas-ls rules --format markdown`, so that the published docs cannot
// drift from `explain`. Regenerate with `go generate ./internal/cli`, which
// runs this test with -update (the flag format_test.go registers).
func TestRulesDocFresh(t *testing.T) {
	code, got, stderr := runIn(t, t.TempDir(), false, noEnv, "rules", "--format", "markdown")
	if code != 0 || stderr != "" {
		t.Fatalf("rules --format markdown: exit %d, stderr %q", code, stderr)
	}
	if formatUpdatingGolden() {
		if err := os.WriteFile(rulesDocPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(rulesDocPath)
	if err != nil {
		t.Fatalf("%v; run go generate ./internal/cli", err)
	}
	if got != string(want) {
		t.Errorf("docs/rules.md is stale; run go generate ./internal/cli")
	}
}

// TestRulesDocCoversEveryRule guards the generator itself: every
// rules.All has a section and an index row pointing at it.
func TestRulesDocCoversEveryRule(t *testing.T) {
	var b bytes.Buffer
	if err := writeRulesMarkdown(&b, rules.All()); err != nil {
		t.Fatal(err)
	}
	for _, a := range rules.All() {
		for _, want := range []string{"\n## " + a.Code + ": " + a.Name + "\n", "(#" + ruleAnchor(a) + ")"} {
			if !bytes.Contains(b.Bytes(), []byte(want)) {
				t.Errorf("rules markdown lacks %q", want)
			}
		}
		if a.Doc.Title == "" || a.Doc.What == "" {
			t.Errorf("%s: Doc.Title and Doc.What are required for explain and docs", a.Code)
		}
	}
}

// TestRulesJSON: `rules --format json` is an array with every rule and
// its documentation, for tools that render their own docs.
func TestRulesJSON(t *testing.T) {
	code, out, _ := runIn(t, t.TempDir(), false, noEnv, "rules", "--format", "json")
	var listed []jsonRule
	if err := json.Unmarshal([]byte(out), &listed); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if len(listed) != len(rules.All()) {
		t.Fatalf("%d rules, want %d", len(listed), len(rules.All()))
	}
	for _, r := range listed {
		if r.Code == "" || r.Name == "" || r.Title == "" || !strings.HasPrefix(r.HelpURI, rulesDocURL+"#") {
			t.Errorf("incomplete rule: %+v", r)
		}
	}
}

// TestReadmeRulesFresh keeps the README's rule table (between the
// rules:begin and rules:end markers) equal to the generated index.
func TestReadmeRulesFresh(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- rules:begin (generated; go generate ./internal/cli) -->\n", "<!-- rules:end -->"
	i, j := bytes.Index(readme, []byte(begin)), bytes.Index(readme, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %q ... %q markers", begin, end)
	}
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	writeRulesIndex(bw, rules.All(), "docs/rules.md")
	bw.Flush()
	if formatUpdatingGolden() {
		out := append(append(append([]byte{}, readme[:i+len(begin)]...), b.Bytes()...), readme[j:]...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := readme[i+len(begin) : j]; !bytes.Equal(got, b.Bytes()) {
		t.Errorf("README.md's rule table is stale; run go generate ./internal/cli")
	}
}
