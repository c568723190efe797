package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestFormatJSONFields decodes the document as a consumer would and checks
// the spec §2 fields, including the ones a Go zero value could hide.
func TestFormatJSONFields(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, formatTestReport()); err != nil {
		t.Fatal(err)
	}
	var doc jsonReport
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || doc.Tool.Name != "pallas-ls" || doc.Tool.Version != "0.1.0" ||
		doc.JAXVersion != "0.11" || doc.FilesChecked != 4 || len(doc.Diagnostics) != 4 {
		t.Fatalf("header: %+v", doc)
	}
	d := doc.Diagnostics[0]
	if d.Code != "PAL101" || d.Name != "comm-outside-shard-map" || d.Severity != "error" ||
		d.File != "pkg/a b.py" || d.Line != 12 || d.Column != 5 || d.EndLine != 12 || d.EndColumn != 20 ||
		!strings.Contains(d.Message, "λ, 𝔸") {
		t.Errorf("diagnostic 0: %+v", d)
	}
	if len(d.Related) != 2 || d.Related[0].File != "main.py" || d.Related[1].File != "/opt/lib/ops.py" ||
		d.Related[0].Line != 40 || d.Related[0].Column != 1 || d.Related[0].Message == "" {
		t.Errorf("related: %+v", d.Related)
	}
	fix := doc.Diagnostics[1].Fixes[0]
	if fix.Applicability != "safe" || fix.Title != "Use pltpu.CompilerParams" || len(fix.Edits) != 2 ||
		fix.Edits[0].NewText != "CompilerParams" || fix.Edits[0].Column != 17 || fix.Edits[0].EndColumn != 34 {
		t.Errorf("fix: %+v", fix)
	}
	if a := doc.Diagnostics[1].Fixes[1].Applicability; a != "display-only" {
		t.Errorf("second fix applicability %q", a)
	}
	if doc.Diagnostics[3].Severity != "info" {
		t.Errorf("info severity: %q", doc.Diagnostics[3].Severity)
	}
}

// TestFormatJSONEmptyLists checks that empty lists are [] (never null) and
// that keys come in the documented order.
func TestFormatJSONEmptyLists(t *testing.T) {
	r := formatTestReport()
	r.Diagnostics = r.Diagnostics[2:3] // no related, no fixes
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`"related": []`, `"fixes": []`, `"message": "100% sharded: mesh axes x, y\nsecond line <b>"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	keys := []string{`"code"`, `"name"`, `"severity"`, `"file"`, `"line"`, `"column"`, `"end_line"`,
		`"end_column"`, `"message"`, `"related"`, `"fixes"`}
	diag := out[strings.Index(out, `"diagnostics"`):]
	last := -1
	for _, k := range keys {
		i := strings.Index(diag, k)
		if i < last {
			t.Errorf("key %s out of order", k)
		}
		last = i
	}
	r.Diagnostics = nil
	buf.Reset()
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"diagnostics": []`) {
		t.Errorf("empty report: %s", buf.String())
	}
}
