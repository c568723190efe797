package pyparse

import (
	"strings"
	"sync"
	"testing"
)

func sexp(t *Tree, id NodeID, b *strings.Builder) {
	n := t.N(id)
	if !n.Named() {
		return
	}
	if f := n.Field; f != 0 {
		b.WriteString(f.String() + ": ")
	}
	b.WriteString("(" + n.Kind.String())
	for c := t.FirstChild(id); c != NoNode; c = t.NextSibling(c) {
		if t.N(c).Named() {
			b.WriteString(" ")
			sexp(t, c, b)
		}
	}
	b.WriteString(")")
}

func TestParseShape(t *testing.T) {
	tr, err := Parse([]byte("import jax\nx = jax.jit(f)(1)\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sexp(tr, tr.Root(), &b)
	want := "(module (import_statement name: (dotted_name (identifier))) (expression_statement (assignment left: (identifier) right: (call function: (call function: (attribute object: (identifier) attribute: (identifier)) arguments: (argument_list (identifier))) arguments: (argument_list (integer))))))"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}

func TestParseErrorsAndMissing(t *testing.T) {
	tr, err := Parse([]byte("def f(:\n  pass\nx = (1,\n"))
	if err != nil {
		t.Fatal(err)
	}
	errs := tr.SyntaxErrors()
	if len(errs) == 0 {
		t.Fatal("want syntax errors")
	}
}

func TestParseHostile(t *testing.T) {
	for name, src := range map[string]string{
		"empty":    "",
		"nul":      "x = 1\x00\ny = 2\n",
		"bad utf8": "x = '\xff\xfe'\n",
		"bom":      "\xef\xbb\xbfimport jax\n",
		"crlf":     "import jax\r\nx = 1\r\n",
		"lone cr":  "import jax\rx = 1\r",
		"deep":     strings.Repeat("(", 5000) + strings.Repeat(")", 5000),
	} {
		tr, err := Parse([]byte(src))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if int(tr.N(0).End) > len(src) {
			t.Errorf("%s: root end %d past source %d", name, tr.N(0).End, len(src))
		}
	}
}

func TestParseConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				tr, err := Parse([]byte("def f(x):\n    return g(x)\n"))
				if err != nil || tr.Kind(1) != KindFunctionDef {
					t.Errorf("bad parse: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestNodeAtAndComments(t *testing.T) {
	src := "x = f(y)  # pallas-ls: ignore[PAL101]\n# lone\n"
	tr, _ := Parse([]byte(src))
	id := tr.NodeAt(strings.Index(src, "y"))
	if tr.Kind(id) != KindIdentifier || tr.Text(id) != "y" {
		t.Errorf("NodeAt: got %v %q", tr.Kind(id), tr.Text(id))
	}
	cs := tr.Comments()
	if len(cs) != 2 || !cs[0].Trailing || cs[1].Trailing {
		t.Errorf("comments: %+v", cs)
	}
}
