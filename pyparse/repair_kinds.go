package pyparse

import "sync"

// gapKinds are the node types and tokens the grammar-gap repairs
// (repair.go) look at. They are resolved from the grammar on first use, not
// at init: only trees that need a repair get here.
type gapKinds struct {
	star, lbracket, lparen, lbrace, comma, eq, colon, walrus Kind
	rbracket, rparen, rbrace                                 Kind
	kwReturn, kwYield, kwIn, kwExcept, kwExceptStar          Kind
	typ, typeParam, constrained, splatType, lambdaParams     Kind
	interpolation, formatExpr, formatSpec                    Kind
	exceptClause, exceptGroup                                Kind

	// operand: node kinds whose first child is an operand that a `*`
	// bound too tightly can sit in (rotateSplats).
	operand map[Kind]bool
	// container: node kinds that may hold a star-expression as an element.
	container map[Kind]bool
	// pattern: containers whose star elements are list_splat_pattern.
	pattern map[Kind]bool
}

var (
	gapOnce sync.Once
	gk      gapKinds
)

func gaps() *gapKinds {
	gapOnce.Do(func() {
		tok := func(s string) Kind { return symbolFor(s, false) }
		node := func(s string) Kind { return symbolFor(s, true) }
		gk = gapKinds{
			star: tok("*"), lbracket: tok("["), lparen: tok("("), lbrace: tok("{"),
			comma: tok(","), eq: tok("="), colon: tok(":"), walrus: tok(":="),
			rbracket: tok("]"), rparen: tok(")"), rbrace: tok("}"),
			kwReturn: tok("return"), kwYield: tok("yield"), kwIn: tok("in"),
			kwExcept: tok("except"), kwExceptStar: tok("except*"),
			typ: node("type"), typeParam: node("type_parameter"),
			constrained: node("constrained_type"), splatType: node("splat_type"),
			lambdaParams: node("lambda_parameters"), interpolation: node("interpolation"),
			formatExpr: node("format_expression"), formatSpec: node("format_specifier"),
			exceptClause: node("except_clause"), exceptGroup: node("except_group_clause"),
		}
		gk.operand = kindSet(KindAttribute, KindCall, KindSubscript, KindBinaryOperator,
			KindBoolean, KindComparison, KindConditionalExpr)
		gk.pattern = kindSet(KindPatternList, KindTuplePattern, KindListPattern)
		gk.container = kindSet(KindList, KindSet, KindTuple, KindExpressionList,
			KindArgumentList, KindSubscript, gk.typ, KindPatternList, KindTuplePattern, KindListPattern)
	})
	return &gk
}

func kindSet(ks ...Kind) map[Kind]bool {
	m := make(map[Kind]bool, len(ks))
	for _, k := range ks {
		m[k] = true
	}
	return m
}
