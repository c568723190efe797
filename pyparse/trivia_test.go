package pyparse

import "testing"

func TestTriviaEdit(t *testing.T) {
	base := "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n             y)  # done\n"
	cases := []struct {
		name, new string
		ok        bool
	}{
		{"comment line at the top", "# c\n" + base, true},
		{"blank line", "import jax\n\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n             y)  # done\n", true},
		{"trailing comment", "import jax  # the library\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n             y)  # done\n", true},
		{"comment retyped", "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n             y)  # undone\n", true},
		{"comment removed", "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n             y)\n", true},
		{"indentation inside brackets", "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n               y)  # done\n", true},
		{"space between tokens", "import jax\n\ndef f(x,  y):\n    s = 'a # b'\n    return g(x,\n             y)  # done\n", true},
		{"unchanged", base, true},
		{"identifier changed", "import jax\n\ndef f(x, z):\n    s = 'a # b'\n    return g(x,\n             y)  # done\n", false},
		{"identifier extended", "import jax\n\ndef f(xx, y):\n    s = 'a # b'\n    return g(x,\n             y)  # done\n", false},
		{"inside a string", "import jax\n\ndef f(x, y):\n    s = 'a  # b'\n    return g(x,\n             y)  # done\n", false},
		{"a statement added", "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    pass\n    return g(x,\n             y)  # done\n", false},
		{"a comment turned into code", "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n             y)  #\ndone\n", false},
		{"block dedented", "import jax\n\ndef f(x, y):\n    s = 'a # b'\nreturn g(x,\n             y)  # done\n", false},
		{"comment opened in code", "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x, # \n             y)  # done\n", true},
		{"code commented out", "import jax\n\ndef f(x, y):\n    s = 'a # b'\n    return g(x,\n             y)  # done\n#", true},
	}
	old, _ := Parse([]byte(base))
	for _, c := range cases {
		nt, _ := Parse([]byte(c.new))
		e, ok := TriviaEdit(old, nt)
		if ok != c.ok {
			t.Errorf("%s: TriviaEdit = %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		// Every node of the old tree that is not a comment lands on its
		// counterpart: spot-check the identifiers.
		var oldIDs, newIDs []Span
		for i := range old.Nodes {
			if old.Nodes[i].Kind == KindIdentifier {
				oldIDs = append(oldIDs, e.MapSpan(old.Nodes[i].Span()))
			}
		}
		for i := range nt.Nodes {
			if nt.Nodes[i].Kind == KindIdentifier {
				newIDs = append(newIDs, nt.Nodes[i].Span())
			}
		}
		if len(oldIDs) != len(newIDs) {
			t.Fatalf("%s: identifier counts differ", c.name)
		}
		for i := range oldIDs {
			if oldIDs[i] != newIDs[i] {
				t.Errorf("%s: identifier %d moved to %v, is at %v", c.name, i, oldIDs[i], newIDs[i])
			}
		}
	}
}

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     Edit
	}{
		{"abc", "abc", Edit{3, 3, 3}},
		{"abc", "aXbc", Edit{1, 1, 2}},
		{"abc", "ac", Edit{1, 2, 1}},
		{"", "x", Edit{0, 0, 1}},
		{"aa", "aaa", Edit{2, 2, 3}},
	} {
		if got := Diff([]byte(c.old), []byte(c.new)); got != c.want {
			t.Errorf("Diff(%q, %q) = %+v, want %+v", c.old, c.new, got, c.want)
		}
	}
}

// TestTriviaEditStringsAndTokens: bytes that belong to no leaf but still
// mean something (a string's content between escapes) are not trivia.
func TestTriviaEditStringsAndTokens(t *testing.T) {
	for _, c := range []struct {
		old, new string
		ok       bool
	}{
		{`s = "a\nb c"` + "\n", `s = "a\nb  c"` + "\n", false},
		{`s = f"{x} b\n c"` + "\n", `s = f"{x} b\n  c"` + "\n", false},
		{"x = a is not b\n", "x = a is  not b\n", true}, // the builder joins the two tokens
		{"from a.\\\nb import c\n", "from a.\\\n# c\nb import c\n", true},
		{`s = "a\nb c"  # n` + "\n", `s = "a\nb c"  # m` + "\n", true},
	} {
		o, _ := Parse([]byte(c.old))
		n, _ := Parse([]byte(c.new))
		if _, ok := TriviaEdit(o, n); ok != c.ok {
			t.Errorf("TriviaEdit(%q -> %q) = %v, want %v", c.old, c.new, ok, c.ok)
		}
	}
}

func TestLeafText(t *testing.T) {
	src := "from a . \\\n b import c\nx = a is  not b\n"
	tr, _ := Parse([]byte(src))
	var got []string
	for i := range tr.Nodes {
		switch tr.Nodes[i].Kind.String() {
		case "dotted_name", "is not":
			got = append(got, tr.LeafText(NodeID(i)))
		}
	}
	want := []string{"a.b", "c", "isnot"}
	if len(got) != len(want) {
		t.Fatalf("LeafText: got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("LeafText: got %q, want %q", got, want)
		}
	}
}
