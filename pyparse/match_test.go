package pyparse

import (
	"strings"
	"testing"
)

func TestMatchStatementShape(t *testing.T) {
	tr, _ := Parse([]byte("match x:\n    case 1:\n        a = 1\n    case _:\n        b = 2\n"))
	var b strings.Builder
	sexp(tr, tr.Root(), &b)
	if !strings.Contains(b.String(), "(match_statement subject: (identifier) body: (block alternative: (case_clause") {
		t.Errorf("unexpected shape: %s", b.String())
	}
}
