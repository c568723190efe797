package analysis

import "testing"

// TestSymbolIdentity: a symbol's parts are one value however often they
// are derived, a join of symbols keeps them apart, and a symbol joined
// with plain Unknown has no identity left (symbols.go).
func TestSymbolIdentity(t *testing.T) {
	a := &vUnknown{sym: &symbol{desc: "a"}}
	b := &vUnknown{sym: &symbol{desc: "b"}}
	if derive(a, ".spec") != derive(a, ".spec") || derive(a, "[0]") == derive(a, "[1]") {
		t.Error("derive: the same part must be the same symbol, different parts different ones")
	}
	if got := derive(derive(a, ".spec"), "[0]").(*vUnknown).sym.desc; got != "a.spec[0]" {
		t.Errorf("derived symbol's description = %q, want a.spec[0]", got)
	}
	if derive(unknown, ".x") != unknown || derive(&vConst{}, "[0]") != unknown {
		t.Error("derive of a value with no identity must be plain Unknown")
	}
	u := join(a, b)
	if _, ok := u.(*vUnion); !ok || !symbolic(u) {
		t.Fatalf("join of two symbols = %T, want a symbolic union", u)
	}
	if d := derive(u, "[0]"); !symbolic(d) || derive(u, "[0]") == derive(a, "[0]") {
		t.Error("a part of a join of symbols must be the join of their parts")
	}
	if join(a, unknown) != unknown || join(unknown, b) != unknown {
		t.Error("a symbol joined with Unknown must be Unknown")
	}
	if symbolic(unknown) || symbolic(join(a, &vExternal{Qual: "x"})) {
		t.Error("plain Unknown, or a join with a value that names no axis, is not symbolic")
	}
	v := value(a)
	for i := 0; i < 100_000; i++ { // a hostile chain of attributes: bounded
		v = derive(v, ".x")
	}
	if v != unknown {
		t.Errorf("a derivation %d parts deep must end in plain Unknown", 100_000)
	}
	if !isUnknown(a) || !isUnknown(unknown) || isUnknown(nil) {
		t.Error("isUnknown must hold of symbols and Unknown, not of nil")
	}
}
