package analysis_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestEveryIRKindIsEvaluated walks the IR's expression and statement
// kinds (ir/ir.go) and fails for any the interpreter has no case for in
// its statement, expression or call evaluation (exec.go, eval.go,
// call.go): a kind the builder makes but the interpreter never looks at
// would be silently skipped, calls inside it included. The opaque kinds
// (ExOther, StOther) are the default cases, which still evaluate what is
// nested in an ExOther.
func TestEveryIRKindIsEvaluated(t *testing.T) {
	kinds := irKinds(t)
	if len(kinds["ExprKind"]) < 10 || len(kinds["StmtKind"]) < 10 {
		t.Fatalf("found too few kinds in ir/ir.go: %v", kinds)
	}
	handled := map[string]bool{"ExOther": true, "StOther": true}
	fset := token.NewFileSet()
	for _, file := range []string{"exec.go", "eval.go", "call.go"} {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			for _, e := range cc.List {
				if sel, ok := e.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "ir" {
						handled[sel.Sel.Name] = true
					}
				}
			}
			return true
		})
	}
	for typ, names := range kinds {
		for _, k := range names {
			if !handled[k] {
				t.Errorf("ir.%s (%s) is built but the interpreter has no case for it in exec.go, eval.go or call.go", k, typ)
			}
		}
	}
}

// irKinds lists the constants of ir.ExprKind and ir.StmtKind.
func irKinds(t *testing.T) map[string][]string {
	f, err := parser.ParseFile(token.NewFileSet(), "ir/ir.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		typ := ""
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok {
				typ = id.Name
			}
			if typ != "ExprKind" && typ != "StmtKind" {
				continue
			}
			for _, n := range vs.Names {
				out[typ] = append(out[typ], n.Name)
			}
		}
	}
	return out
}
