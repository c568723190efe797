package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestFormatSARIFRequired decodes the log without this package's types and
// checks the properties SARIF 2.1.0 requires, plus the cross references a
// consumer such as GitHub code scanning follows.
func TestFormatSARIFRequired(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, formatTestReport()); err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log["version"] != "2.1.0" || log["$schema"] == nil {
		t.Errorf("version %v, $schema %v", log["version"], log["$schema"])
	}
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs: %v", log["runs"])
	}
	run := runs[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["name"] != "pallas-ls" {
		t.Errorf("driver name %v", driver["name"])
	}
	rules := driver["rules"].([]any)
	ruleIDs := make([]string, len(rules))
	for i, r := range rules {
		rule := r.(map[string]any)
		ruleIDs[i], _ = rule["id"].(string)
		if rule["shortDescription"].(map[string]any)["text"] == "" {
			t.Errorf("rule %s without shortDescription", ruleIDs[i])
		}
	}
	if len(rules) != 3 { // PAL101, PAL103 (undocumented), PAL301; not the unused PAL999
		t.Errorf("rules %v", ruleIDs)
	}
	base := run["originalUriBaseIds"].(map[string]any)["%SRCROOT%"].(map[string]any)["uri"]
	if base != "file:///work/proj/" {
		t.Errorf("%%SRCROOT%% = %v", base)
	}
	for i, r := range run["results"].([]any) {
		checkSARIFResult(t, i, r.(map[string]any), ruleIDs)
	}
}

func checkSARIFResult(t *testing.T, i int, res map[string]any, ruleIDs []string) {
	t.Helper()
	msg, _ := res["message"].(map[string]any)
	if msg == nil || msg["text"] == "" {
		t.Errorf("result %d: no message", i)
	}
	idx, _ := res["ruleIndex"].(float64)
	if int(idx) >= len(ruleIDs) || ruleIDs[int(idx)] != res["ruleId"] {
		t.Errorf("result %d: ruleId %v does not match rules[%v]", i, res["ruleId"], idx)
	}
	switch res["level"] {
	case "error", "warning", "note":
	default:
		t.Errorf("result %d: level %v", i, res["level"])
	}
	locs, _ := res["locations"].([]any)
	if len(locs) != 1 {
		t.Fatalf("result %d: locations %v", i, res["locations"])
	}
	phys := locs[0].(map[string]any)["physicalLocation"].(map[string]any)
	art := phys["artifactLocation"].(map[string]any)
	if art["uriBaseId"] != "%SRCROOT%" || art["uri"] == "" {
		t.Errorf("result %d: artifactLocation %v", i, art)
	}
	if region := phys["region"].(map[string]any); region["startLine"] == nil || region["startColumn"] == nil {
		t.Errorf("result %d: region %v", i, region)
	}
	fixes, _ := res["fixes"].([]any)
	for _, f := range fixes {
		if changes, _ := f.(map[string]any)["artifactChanges"].([]any); len(changes) == 0 {
			t.Errorf("result %d: fix without artifactChanges", i)
		}
	}
}

func TestFormatSARIFURIs(t *testing.T) {
	tests := map[string]string{
		"pkg/a b.py":       "pkg/a%20b.py",
		"odd,na:me%.py":    "odd%2Cna%3Ame%25.py",
		"π/ü.py":           "%CF%80/%C3%BC.py",
		"/opt/lib/ops.py":  "file:///opt/lib/ops.py",
		"/opt/my lib/#.py": "file:///opt/my%20lib/%23.py",
	}
	for display, want := range tests {
		if got := sarifArtifact(display).URI; got != want {
			t.Errorf("%q: got %q, want %q", display, got, want)
		}
	}
}
