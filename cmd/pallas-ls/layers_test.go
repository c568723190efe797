package main

import (
	"os/exec"
	"strings"
	"testing"
)

const mod = "github.com/pallas-ls/pallas-ls"

// allowed lists, per package, the module packages it may import
// directly (design.md's dependency direction). Third-party imports are
// checked separately: tree-sitter only in pyparse, go.lsp.dev only in
// internal/lsp.
var allowed = map[string][]string{
	"pyparse":            {},
	"lowering":           {},
	"analysis/ir":        {"pyparse"},
	"analysis":           {"analysis/ir", "pyparse", "lowering"},
	"analysis/rules":     {"analysis", "analysis/ir", "lowering", "pyparse"},
	"internal/safefs":    {},
	"internal/config":    {"analysis", "lowering", "internal/safefs"},
	"internal/workspace": {"internal/safefs"},
	"internal/lsp":       {"analysis", "analysis/rules", "pyparse", "lowering", "internal/config", "internal/workspace", "internal/safefs"},
	"internal/cli":       {"analysis", "analysis/rules", "lowering", "pyparse", "internal/config", "internal/workspace", "internal/lsp", "internal/safefs"},
	"internal/hostile":   {},
	"oracle":             {},
	"internal/e2e":       {},
	"internal/bench":     {"analysis", "analysis/rules", "pyparse", "lowering", "internal/lsp", "internal/workspace", "internal/config", "internal/cli"},
	"internal/mutate":    {"pyparse", "oracle"},
	"cmd/pallas-ls":      {"internal/cli"},
}

func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], mod), "/")
		ok, known := allowed[pkg]
		if !known {
			t.Errorf("package %s has no entry in the layering table", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			switch {
			case strings.HasPrefix(imp, mod+"/"):
				if !contains(ok, strings.TrimPrefix(imp, mod+"/")) {
					t.Errorf("%s must not import %s", pkg, imp)
				}
			case strings.Contains(imp, "tree-sitter") && pkg != "pyparse":
				t.Errorf("%s imports %s: only pyparse may use tree-sitter", pkg, imp)
			case strings.HasPrefix(imp, "go.lsp.dev/") && pkg != "internal/lsp":
				t.Errorf("%s imports %s: only internal/lsp may use go.lsp.dev", pkg, imp)
			case pkg == "lowering" && strings.Contains(imp, "."):
				t.Errorf("lowering must use the standard library only, imports %s", imp)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
