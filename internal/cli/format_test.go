package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// The -update flag rewrites the golden files. It is registered in init, and
// only if no other test file of the package has registered it already, so
// that several golden-file tests can share one flag.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func formatUpdatingGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// checkFormatGolden compares got with testdata/format/<name>.golden.
func checkFormatGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "format", name+".golden")
	if formatUpdatingGolden() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file; run go test ./internal/cli -run Format -update\n--- got:\n%s\n--- want:\n%s", name, got, want)
	}
}

const formatTestRoot = "/work/proj"

func formatTestLoc(file string, line, col, endLine, endCol int) analysis.Location {
	return analysis.Location{File: file, Pos: analysis.Position{Line: line, Column: col, EndLine: endLine, EndColumn: endCol}}
}

// formatTestReport covers what the formats must get right: related
// locations (one outside the working directory), a fix with edits in two
// places, non-ASCII text, a path with spaces, and characters that GitHub
// commands and URIs must escape.
func formatTestReport() Report {
	a := formatTestRoot + "/pkg/a b.py"
	diags := []analysis.Diagnostic{{
		Code: "PAL101", Name: "comm-outside-shard-map", Severity: analysis.SeverityError,
		Location: formatTestLoc(a, 12, 5, 12, 20),
		Message:  "communicating kernel `ring_kernel` runs outside shard_map — JAX raises “NotImplementedError” (λ, 𝔸)",
		Related: []analysis.Related{
			{Location: formatTestLoc(formatTestRoot+"/main.py", 40, 1, 40, 15), Message: "reached from here: jax.jit(step) without shard_map"},
			{Location: formatTestLoc("/opt/lib/ops.py", 7, 3, 7, 30), Message: "remote DMA: pltpu.make_async_remote_copy"},
		},
		JAXError: &analysis.JAXError{Type: "NotImplementedError", Message: "Mosaic kernels cannot be automatically partitioned. Please wrap the call in a shard_map."},
	}, {
		Code: "PAL301", Name: "removed-api", Severity: analysis.SeverityError,
		Location: formatTestLoc(a, 30, 17, 30, 34),
		Message:  "pltpu.TPUCompilerParams was removed in JAX 0.8; use pltpu.CompilerParams",
		Fixes: []analysis.SuggestedFix{{
			Title: "Use pltpu.CompilerParams", Applicability: analysis.Safe,
			Edits: []analysis.TextEdit{
				{Location: formatTestLoc(a, 30, 17, 30, 34), NewText: "CompilerParams"},
				{Location: formatTestLoc(a, 1, 1, 1, 1), NewText: "from jax.experimental import pallas as pl\n"},
			},
		}, {Title: "Show the migration guide", Applicability: analysis.DisplayOnly}},
	}, {
		Code: "PAL103", Name: "kernel-under-multi-device-jit", Severity: analysis.SeverityWarning,
		Location: formatTestLoc(formatTestRoot+"/odd,na:me%.py", 3, 1, 3, 9),
		Message:  "100% sharded: mesh axes x, y\nsecond line <b>",
	}, {
		Code: "PAL101", Name: "comm-outside-shard-map", Severity: analysis.SeverityInfo,
		Location: formatTestLoc(formatTestRoot+"/lib.py", 5, 9, 5, 20),
		Message:  "callers must run this inside jax.shard_map",
	}}
	return Report{
		ToolVersion: "0.1.0", JAXVersion: "0.11", FilesChecked: 4, Diagnostics: diags,
		Display: func(abs string) string {
			if rel, ok := strings.CutPrefix(abs, formatTestRoot+"/"); ok {
				return rel
			}
			return abs
		},
		Rules: []RuleInfo{{
			Code: "PAL101", Name: "comm-outside-shard-map", Title: "Communicating kernel called outside shard_map",
			Description: "A kernel that talks to other devices needs a fully manual SPMD context.",
			HelpURI:     "https://github.com/pallas-ls/pallas-ls/blob/main/docs/rules.md#pal101", DefaultSeverity: analysis.SeverityError,
		}, {
			Code: "PAL301", Name: "removed-api", Title: "Removed JAX API", DefaultSeverity: analysis.SeverityError,
		}, {
			Code: "PAL999", Name: "unused-rule", Title: "Not used by any diagnostic", DefaultSeverity: analysis.SeverityHint,
		}},
		WorkDir: formatTestRoot,
	}
}

func TestFormatGolden(t *testing.T) {
	r := formatTestReport()
	formats := []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"text", func(b *bytes.Buffer) error { return WriteText(b, r, false) }},
		{"text_color", func(b *bytes.Buffer) error { return WriteText(b, r, true) }},
		{"json", func(b *bytes.Buffer) error { return WriteJSON(b, r) }},
		{"sarif", func(b *bytes.Buffer) error { return WriteSARIF(b, r) }},
		{"github", func(b *bytes.Buffer) error { return WriteGitHub(b, r) }},
	}
	for _, f := range formats {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		checkFormatGolden(t, f.name, buf.Bytes())
	}
}

func TestFormatTextSummary(t *testing.T) {
	r := formatTestReport()
	tests := []struct {
		diags        []analysis.Diagnostic
		safe, unsafe int
		want         string
	}{
		{nil, 0, 0, "All checks passed.\n"},
		{r.Diagnostics, 1, 0, "Found 4 problems (2 errors, 1 warning, 1 info). 1 fixable with --fix.\n"},
		{r.Diagnostics[:1], 0, 0, "Found 1 problem (1 error, 0 warnings).\n"},
		{r.Diagnostics[2:3], 0, 1, "Found 1 problem (0 errors, 1 warning). 1 fixable with --fix --unsafe-fixes.\n"},
		{r.Diagnostics[:3], 2, 1, "Found 3 problems (2 errors, 1 warning). 2 fixable with --fix (1 more with --fix --unsafe-fixes).\n"},
	}
	for _, tt := range tests {
		r.Diagnostics = tt.diags
		var buf bytes.Buffer
		if err := WriteTextSummary(&buf, r, tt.safe, tt.unsafe); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tt.want {
			t.Errorf("got %q, want %q", buf.String(), tt.want)
		}
	}
}

func TestFormatEmptyReport(t *testing.T) {
	r := Report{ToolVersion: "0.1.0", JAXVersion: "0.11", WorkDir: "/w"}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":   func(b *bytes.Buffer) error { return WriteText(b, r, true) },
		"github": func(b *bytes.Buffer) error { return WriteGitHub(b, r) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil || buf.Len() != 0 {
			t.Errorf("%s: %q, %v; want no output", name, buf.String(), err)
		}
	}
}
