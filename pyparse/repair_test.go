package pyparse

import (
	"strings"
	"testing"
)

// TestGrammarGaps: each construct CPython 3.11-3.13 accepts and the grammar
// rejects or misreads parses without syntax errors, into the shape Python
// means, with exact byte spans (the shapes were checked by hand against the
// sources' offsets).
func TestGrammarGaps(t *testing.T) {
	for _, c := range []struct{ src, kind, want string }{
		// Star-expressions the grammar rejects: the star is blanked for a
		// second parse and a list_splat put back around its operand.
		{"x.at[*(i for i in r)].set(0)\n", "subscript",
			"object:subscript@0-21(value:attribute@0-4(object:identifier@0-1 attribute:identifier@2-4) subscript:list_splat@5-20(generator_expression@6-20(body:identifier@7-8 for_in_clause@9-19(left:identifier@13-14 right:identifier@18-19))))"},
		{"x[*a, *(b)]\n", "subscript",
			"subscript@0-11(value:identifier@0-1 subscript:list_splat@2-4(identifier@3-4) subscript:list_splat@6-10(parenthesized_expression@7-10(identifier@8-9)))"},
		{"x[0, *-a, 1:2]\n", "subscript",
			"subscript@0-14(value:identifier@0-1 subscript:integer@2-3 subscript:list_splat@5-8(unary_operator@6-8(argument:identifier@7-8)) subscript:slice@10-13(integer@10-11 integer@12-13))"},
		// Stars the grammar binds to the first name only: rotated.
		{"x[*f(a)]\n", "subscript",
			"subscript@0-8(value:identifier@0-1 subscript:list_splat@2-7(call@3-7(function:identifier@3-4 arguments:argument_list@4-7(identifier@5-6))))"},
		{"x[*a.b()]\n", "subscript",
			"subscript@0-9(value:identifier@0-1 subscript:list_splat@2-8(call@3-8(function:attribute@3-6(object:identifier@3-4 attribute:identifier@5-6) arguments:argument_list@6-8)))"},
		{"x[*a + b]\n", "subscript",
			"subscript@0-9(value:identifier@0-1 subscript:list_splat@2-8(binary_operator@3-8(left:identifier@3-4 right:identifier@7-8)))"},
		// Rejected again (operands that are not primaries), nested, with
		// comments and line continuations between star and operand, in targets.
		{"x[*await f()]\n", "subscript",
			"subscript@0-13(value:identifier@0-1 subscript:list_splat@2-12(await@3-12(call@9-12(function:identifier@9-10 arguments:argument_list@10-12))))"},
		{"x[*not a]\n", "subscript",
			"subscript@0-9(value:identifier@0-1 subscript:list_splat@2-8(not_operator@3-8(argument:identifier@7-8)))"},
		{"x[ *  # c\n (b)]\n", "subscript",
			"subscript@0-15(value:identifier@0-1 subscript:list_splat@3-14(parenthesized_expression@11-14(identifier@12-13)))"},
		{"x[*\\\n(b)]\n", "subscript",
			"subscript@0-9(value:identifier@0-1 subscript:list_splat@2-8(line_continuation@3-5 parenthesized_expression@5-8(identifier@6-7)))"},
		{"x[*y[*(z)]]\n", "subscript",
			"subscript@0-11(value:identifier@0-1 subscript:list_splat@2-10(subscript@3-10(value:identifier@3-4 subscript:list_splat@5-9(parenthesized_expression@6-9(identifier@7-8)))))"},
		{"x[*(b)] = 1\n", "assignment",
			"assignment@0-11(left:subscript@0-7(value:identifier@0-1 subscript:list_splat@2-6(parenthesized_expression@3-6(identifier@4-5))) right:integer@10-11)"},
		{"del x[*(b)]\n", "delete_statement",
			"delete_statement@0-11(subscript@4-11(value:identifier@4-5 subscript:list_splat@6-10(parenthesized_expression@7-10(identifier@8-9))))"},
		// Bound to the first name: lists, tuples, bare tuples, annotations.
		{"k = [*tpu.CoreType]\n", "list",
			"right:list@4-19(list_splat@5-18(attribute@6-18(object:identifier@6-9 attribute:identifier@10-18)))"},
		{"s = (*q.shape[:-1], d)\n", "tuple",
			"right:tuple@4-22(list_splat@5-18(subscript@6-18(value:attribute@6-13(object:identifier@6-7 attribute:identifier@8-13) subscript:slice@14-17(unary_operator@15-17(argument:integer@16-17)))) identifier@20-21)"},
		{"B, T = *q.shape, v\n", "expression_list",
			"right:expression_list@7-18(list_splat@7-15(attribute@8-15(object:identifier@8-9 attribute:identifier@10-15)) identifier@17-18)"},
		// Bare tuples that begin with a rejected star begin at the star.
		{"x = *-a,\n", "expression_list",
			"right:expression_list@4-8(list_splat@4-7(unary_operator@5-7(argument:identifier@6-7)))"},
		{"def g():\n    return *f(), 1\n", "expression_list",
			"expression_list@20-27(list_splat@20-24(call@21-24(function:identifier@21-22 arguments:argument_list@22-24)) integer@26-27)"},
		{"for i in *a.b, c: pass\n", "expression_list",
			"right:expression_list@9-16(list_splat@9-13(attribute@10-13(object:identifier@10-11 attribute:identifier@12-13)) identifier@15-16)"},
		// A starred target.
		{"a, *(b) = c\n", "pattern_list",
			"left:pattern_list@0-7(identifier@0-1 list_splat_pattern@3-7(tuple_pattern@4-7(identifier@5-6)))"},
		// PEP 646 `*args: *tuple[...]`.
		{"def f(*args: *tuple[int, ...]): pass\n", "typed_parameter",
			"typed_parameter@6-29(list_splat_pattern@6-11(identifier@7-11) type:type@13-29(list_splat@13-29(subscript@14-29(value:identifier@14-19 subscript:identifier@20-23 subscript:ellipsis@25-28))))"},
		// `except *E` (alone: an except clause over list_splat; mixed with
		// `except*`: a syntax error) is an except* clause.
		{"try:\n    pass\nexcept *E:\n    pass\n", "try_statement",
			"try_statement@0-33(body:block@9-13(pass_statement@9-13) except_group_clause@14-33(identifier@22-23 block@29-33(pass_statement@29-33)))"},
		{"try:\n    pass\nexcept* E:\n    pass\nexcept  *F as e:\n    pass\n", "try_statement",
			"try_statement@0-59(body:block@9-13(pass_statement@9-13) except_group_clause@14-33(identifier@22-23 block@29-33(pass_statement@29-33)) except_group_clause@34-59(as_pattern@43-49(identifier@43-44 alias:as_pattern_target@48-49(identifier@48-49)) block@55-59(pass_statement@55-59)))"},
		// A format spec that starts with `=` (a syntax error, or read as `:=`).
		{"f\"{x:=^80}\"\n", "interpolation",
			"interpolation@2-10(expression:identifier@3-4 format_specifier:format_specifier@4-9)"},
		{"f\"{x:=8}\"\n", "interpolation",
			"interpolation@2-8(expression:identifier@3-4 format_specifier:format_specifier@4-7)"},
		{"f\"{x!r:{w}} {y:{z:=^8}}\"\n", "string",
			"string@0-24(string_start@0-2 interpolation@2-11(expression:identifier@3-4 type_conversion:type_conversion@4-6 format_specifier:format_specifier@6-10(format_expression@7-10(expression:identifier@8-9))) string_content@11-12 interpolation@12-23(expression:identifier@13-14 format_specifier:format_specifier@14-22(format_expression@15-22(expression:identifier@16-17 format_specifier:format_specifier@17-21))) string_end@23-24)"},
		// PEP 696 defaults (3.13): constrained_type nodes whose operator is `=`.
		{"def f[T = int](): pass\n", "type_parameter",
			"type_parameters:type_parameter@5-14(type@6-13(constrained_type@6-13(type@6-7(identifier@6-7) type@10-13(identifier@10-13))))"},
		{"class C[T: int = bool, *Ts = *tuple[int], **P = [int]]: pass\n", "type_parameter",
			"type_parameters:type_parameter@7-54(type@8-21(constrained_type@8-21(type@8-9(identifier@8-9) type@11-21(constrained_type@11-21(type@11-14(identifier@11-14) type@17-21(identifier@17-21))))) type@23-40(constrained_type@23-40(type@23-26(splat_type@23-26(identifier@24-26)) type@29-40(list_splat@29-40(subscript@30-40(value:identifier@30-35 subscript:identifier@36-39))))) type@42-53(constrained_type@42-53(type@42-45(splat_type@42-45(identifier@44-45)) type@48-53(list@48-53(identifier@49-52)))))"},
		{"type A[T = int] = list[T]\n", "type_alias_statement",
			"type_alias_statement@0-25(left:type@5-15(generic_type@5-15(identifier@5-6 type_parameter@6-15(type@7-14(constrained_type@7-14(type@7-8(identifier@7-8) type@11-14(identifier@11-14)))))) right:type@18-25(generic_type@18-25(identifier@18-22 type_parameter@22-25(type@23-24(identifier@23-24)))))"},
		// Old Mac line endings: CPython reads a lone `\r` as a line break.
		{"x = 1\ry = 2\r", "module",
			"module@0-12(expression_statement@0-5(assignment@0-5(left:identifier@0-1 right:integer@4-5)) expression_statement@6-11(assignment@6-11(left:identifier@6-7 right:integer@10-11)))"},
		// A comment ends at a lone `\r` too (the grammar ran it on to the
		// next `\n`, and the file was one comment).
		{"# c\rx = 1\r", "module",
			"module@0-10(expression_statement@4-9(assignment@4-9(left:identifier@4-5 right:integer@8-9)))"},
		// In brackets a line may be indented less than its statement.
		{"def f():\n    x = (a.\nb)\n    y = 1\n", "block",
			"body:block@13-33(expression_statement@13-23(assignment@13-23(left:identifier@13-14 right:parenthesized_expression@17-23(attribute@18-22(object:identifier@18-19 attribute:identifier@21-22)))) expression_statement@28-33(assignment@28-33(left:identifier@28-29 right:integer@32-33)))"},
		// Untouched: a keyword-only marker, a star in a list.
		{"def f(a, *, b): return [*a]\n", "function_definition",
			"function_definition@0-27(name:identifier@4-5 parameters:parameters@5-14(identifier@6-7 keyword_separator@9-10 identifier@12-13) body:block@16-27(return_statement@16-27(list@23-27(list_splat@24-26(identifier@25-26)))))"},
	} {
		tr, err := Parse([]byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if errs := tr.SyntaxErrors(); len(errs) > 0 {
			t.Errorf("%q: syntax errors %v", c.src, errs)
		}
		if err := checkTree(tr); err != nil {
			t.Errorf("%q: %v", c.src, err)
		}
		if got := shape(tr, firstOf(tr, c.kind)); got != c.want {
			t.Errorf("%q:\n got  %s\n want %s", c.src, got, c.want)
		}
	}
}

// TestGrammarGapTokens: the tokens that stood in for the second parse get
// the source's own kind and span back.
func TestGrammarGapTokens(t *testing.T) {
	src := "try:\n    pass\nexcept* E:\n    pass\nexcept  *F:\n    pass\nclass C[T = int]: pass\n"
	tr, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var excepts, eqs []string
	for i := range tr.Nodes {
		id := NodeID(i)
		switch k := tr.Kind(id).String(); {
		case k == "except*":
			excepts = append(excepts, tr.Text(id))
		case k == "=" && tr.Ancestor(id, KindClassDef) != NoNode:
			eqs = append(eqs, tr.Text(id))
		case k == ":" && tr.Text(id) != ":":
			t.Errorf("a %q token spells %q", k, tr.Text(id))
		}
	}
	if strings.Join(excepts, "|") != "except*|except  *" || strings.Join(eqs, "|") != "=" {
		t.Errorf("except* tokens %q, = tokens %q", excepts, eqs)
	}
}

// TestGrammarGapsKeepErrors: a repair never hides a real syntax error, and
// a star that is not a star-expression (keyword-only marker) is left alone
// in a file with errors.
func TestGrammarGapsKeepErrors(t *testing.T) {
	for _, src := range []string{
		"x = [*\n",
		"x[*a,\ndef f(a, *, b): pass\n",
		"x.at[*(i for i in r)\ny = (\n",
		"f(**)\nx[*(a)]\n",
		"try:\n    pass\nexcept *:\n    pass\n",
		"def f[T = ](): pass\n",
	} {
		tr, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.SyntaxErrors()) == 0 {
			t.Errorf("%q: no syntax error", src)
		}
		if err := checkTree(tr); err != nil {
			t.Errorf("%q: %v", src, err)
		}
		if string(tr.Src) != src {
			t.Errorf("%q: the tree's source changed", src)
		}
	}
	// A bracket left open while typing joins no lines: the tree is
	// tree-sitter's own, with g recovered after the error.
	typing := []byte("def f():\n    x = foo(\ndef g():\n    return 1\n")
	raw, _, _ := parseRaw(typing)
	if tr, _ := Parse(typing); shape(tr, 0) != shape(raw, 0) {
		t.Errorf("%q: %s", typing, shape(tr, 0))
	}
	src := "x[*(a)]\ndef f(a, *, b): pass\ny = (\n"
	tr, _ := Parse([]byte(src))
	sub := firstOf(tr, "subscript")
	if id := firstOf(tr, "keyword_separator"); id == NoNode || tr.Text(id) != "*" ||
		shape(tr, sub) != "subscript@0-7(value:identifier@0-1 subscript:list_splat@2-6(parenthesized_expression@3-6(identifier@4-5)))" {
		t.Errorf("%q: %s", src, shape(tr, 0))
	}
}
