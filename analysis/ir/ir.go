package ir

import "github.com/pallas-ls/pallas-ls/pyparse"

// The IR is a small Python AST holding what the analysis needs, extracted
// from a pyparse.Tree in one walk. It keeps no reference to the tree, so a
// Summary can be cached and the tree dropped.

// ExprKind classifies an Expr.
type ExprKind uint8

const (
	ExOther     ExprKind = iota // anything the analysis treats as opaque
	ExName                      // Name
	ExAttr                      // X.Name
	ExCall                      // X(Args..., Kw...)
	ExConst                     // Const
	ExTuple                     // (Args...)
	ExList                      // [Args...]
	ExDict                      // {Kw[i].Key: Kw[i].Value}
	ExLambda                    // Lambda
	ExSubscript                 // X[Args[0]]
	ExCompare                   // Args[0] Ops[0] Args[1] ...
	ExNot                       // not X
	ExBoolOp                    // Args joined by Ops[0] ("and"/"or")
	ExCond                      // Args[0] if Args[1] else Args[2]
	ExStarred                   // *X (in calls and displays)
	ExBinOp                     // Args[0] Ops[0] Args[1]
	ExSet                       // {Args...}
	ExSlice                     // Args[0]:Args[1]:Args[2], a missing bound None (in subscripts)
	// ExComp is a comprehension or generator expression: X the element
	// (a dict comprehension's key and value as an ExTuple), Kw its clauses
	// in order: `for Key in Value` (Key set) and `if Value` (Key nil).
	ExComp
)

// ConstKind classifies a literal.
type ConstKind uint8

const (
	ConstNone ConstKind = iota + 1
	ConstBool
	ConstInt
	ConstStr
	ConstFloat
)

// Const is a literal value.
type Const struct {
	S    string // ConstStr: the decoded value of a simple string literal
	I    int64
	Kind ConstKind
	B    bool
}

// Expr is one expression. It is the most numerous value the analysis
// keeps (one per expression of every file: about two per line of the code
// a check parses, 60% of its live heap before this layout), so it is
// compact: 80 bytes, one of Go's size classes, where the plain struct
// took 128. Kind, Span, Name, X and Args are fields; the parts few
// expressions have (a call's or dict's keywords, a literal's value, a
// lambda) live in a side struct, allocated only for the expressions that
// have one of them and read through Kw, Const and Lambda; the operator of
// ExCompare/ExBoolOp/ExBinOp is a one-byte code into a table of the
// operators Python has (Op; any other text, from error recovery, goes to
// the side struct). Build them through the setters (SetKw, SetConst,
// SetLambda, SetOp).
type Expr struct {
	Kind ExprKind
	op   uint8 // index+1 in opTable; 0: none, or more.op
	Span pyparse.Span
	Name string
	X    *Expr
	Args []*Expr
	more *exprMore
}

// exprMore is the rarely present part of an Expr (see Expr).
type exprMore struct {
	kw     []Keyword
	lambda *FuncDef
	c      Const // Kind 0: no literal
	op     string
}

// opTable holds the operators Op returns, by code (op-1).
var opTable = [...]string{"+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^",
	"<", ">", "==", ">=", "<=", "!=", "<>", "in", "not in", "is", "is not", "and", "or"}

// side returns the side struct to write to. A literal's may be shared
// with other literals of the same value (SetConst): it is copied first.
func (e *Expr) side() *exprMore {
	switch {
	case e.more == nil:
		e.more = &exprMore{}
	case e.more.c.Kind != 0:
		m := *e.more
		e.more = &m
	}
	return e.more
}

// constOnly reports whether m holds a literal and nothing else.
func (m *exprMore) constOnly() bool {
	return m.c.Kind != 0 && m.kw == nil && m.lambda == nil && m.op == ""
}

// Literals are a fifth of all expressions, and most are None, a bool or
// a small int: their side structs are shared, read-only (side copies one
// before writing), so that such a literal costs its Expr alone. The
// builder shares a file's other literals among themselves (builder.setConst).
const minSharedInt, maxSharedInt = -16, 1024

var sharedConsts = func() (m struct {
	none, float exprMore
	bools       [2]exprMore
	ints        [maxSharedInt - minSharedInt]exprMore
}) {
	m.none.c = Const{Kind: ConstNone}
	m.float.c = Const{Kind: ConstFloat}
	m.bools[0].c, m.bools[1].c = Const{Kind: ConstBool}, Const{Kind: ConstBool, B: true}
	for i := range m.ints {
		m.ints[i].c = Const{Kind: ConstInt, I: int64(i + minSharedInt)}
	}
	return m
}()

// sharedConst returns the shared side struct of c, nil if it has none.
func sharedConst(c Const) *exprMore {
	switch {
	case c == Const{Kind: ConstNone}:
		return &sharedConsts.none
	case c == Const{Kind: ConstFloat}:
		return &sharedConsts.float
	case c.Kind == ConstBool && c.S == "" && c.I == 0:
		if c.B {
			return &sharedConsts.bools[1]
		}
		return &sharedConsts.bools[0]
	case c.Kind == ConstInt && c.S == "" && !c.B && c.I >= minSharedInt && c.I < maxSharedInt:
		return &sharedConsts.ints[c.I-minSharedInt]
	}
	return nil
}

// Kw is a call's keywords, a dict's entries or a comprehension's clauses
// (see ExprKind).
func (e *Expr) Kw() []Keyword {
	if e.more == nil {
		return nil
	}
	return e.more.kw
}

// SetKw sets Kw.
func (e *Expr) SetKw(kw []Keyword) {
	if kw == nil && e.more == nil {
		return
	}
	e.side().kw = kw
}

// Const is an ExConst's value, nil for other expressions.
func (e *Expr) Const() *Const {
	if e.more == nil || e.more.c.Kind == 0 {
		return nil
	}
	return &e.more.c
}

// SetConst sets Const to a copy of c.
func (e *Expr) SetConst(c Const) {
	if e.more == nil || e.more.constOnly() {
		if m := sharedConst(c); m != nil {
			e.more = m
			return
		}
	}
	e.side().c = c
}

// Lambda is an ExLambda's function.
func (e *Expr) Lambda() *FuncDef {
	if e.more == nil {
		return nil
	}
	return e.more.lambda
}

// SetLambda sets Lambda.
func (e *Expr) SetLambda(f *FuncDef) {
	if f == nil && e.more == nil {
		return
	}
	e.side().lambda = f
}

// Op is the operator of ExCompare/ExBoolOp/ExBinOp (chained comparisons
// keep only the first; they are not folded).
func (e *Expr) Op() string {
	if e.op != 0 {
		return opTable[e.op-1]
	}
	if e.more == nil {
		return ""
	}
	return e.more.op
}

// SetOp sets Op.
func (e *Expr) SetOp(op string) {
	for i, o := range opTable {
		if o == op {
			e.op = uint8(i + 1)
			if e.more != nil {
				e.more.op = ""
			}
			return
		}
	}
	e.op = 0
	if op != "" || e.more != nil {
		e.side().op = op
	}
}

// Keyword is a call keyword (Name "" for **kwargs) or a dict entry (Key set).
type Keyword struct {
	Name     string
	NameSpan pyparse.Span
	Key      *Expr
	Value    *Expr
}

// StmtKind classifies a Stmt.
type StmtKind uint8

const (
	StExpr StmtKind = iota + 1
	StAssign
	StReturn
	StIf
	StWith
	StLoop
	StTry
	StDef
	StClass
	StImport
	StOther
	StRaise    // raise Value (nil: a bare raise); ends its block
	StGlobal   // global Targets (names)
	StNonlocal // nonlocal Targets (names)
	StHandler  // one except clause of a StTry (in its Else): Body runs only when the try body raised
)

// Stmt is one statement. An if/elif chain is nested Ifs in Else.
//
// Aug sits beside Kind, in the padding before Span: 192 bytes, a size
// class of Go's allocator, where 200 took 208.
type Stmt struct {
	Kind    StmtKind
	Aug     bool // StAssign: augmented (+=)
	Span    pyparse.Span
	Targets []*Expr // StAssign (a = b = v has two); StLoop: the loop target
	Value   *Expr   // StAssign, StReturn, StExpr, StRaise; StLoop: the iterable
	Cond    *Expr   // StIf
	Body    []*Stmt
	Else    []*Stmt // StIf orelse; StTry: its StHandlers, then the else clause's statements
	Finally []*Stmt // StTry
	Items   []WithItem
	Def     *FuncDef
	Class   *ClassDef
	Import  *Import
	// Main is set on a module-level `if __name__ == "__main__":` without
	// an else: the script's own entry, which never runs on import. Its
	// Body is the statement's (the same slice): the walks that read the
	// statements of a module read it there, and only the interpreter and
	// the shape walk (shape.go) treat it as a body of its own.
	Main *FuncDef
}

// WithItem is `ctx as target`.
type WithItem struct {
	Ctx    *Expr
	Target *Expr
}

// ParamKind distinguishes how a parameter binds.
type ParamKind uint8

const (
	ParamNormal ParamKind = iota
	ParamVarArgs
	ParamKwArgs
	ParamKwOnly
	ParamPosOnly
)

// Param is one function parameter.
type Param struct {
	Name       string
	Kind       ParamKind
	Default    *Expr
	Annotation *Expr
}

// FuncDef is a def or a lambda (Lambda true, Body a single return).
type FuncDef struct {
	Name       string
	Qual       string // dotted path inside the module: "Layer.__call__", "outer.<locals>.inner"
	Span       pyparse.Span
	NameSpan   pyparse.Span
	Params     []Param
	Decorators []*Expr
	Body       []*Stmt
	Lambda     bool
	File       *Summary
	// MocksSPMD is set when the definition's text, comments included,
	// replaces shard_map or a collective with a fake
	// (mock.patch("jax.shard_map"), monkeypatch.setattr(jax, "shard_map",
	// ...), mock.patch.object(jax.lax, "psum", ...)): code under test then
	// never meets the real one (build_defs.go: mocksSPMD).
	MocksSPMD bool
}

// ClassDef is a class statement.
type ClassDef struct {
	Name       string
	Qual       string
	Span       pyparse.Span
	NameSpan   pyparse.Span
	Bases      []*Expr
	Decorators []*Expr
	Body       []*Stmt
	File       *Summary
}

// Import is `import a.b as c` or `from ..a import b as c`.
type Import struct {
	From   bool
	Level  int    // leading dots of a relative import
	Module string // "a.b" (may be "" for `from . import x`)
	Names  []ImportName
	Star   bool
}

// ImportName is one imported name and its local alias ("" for none).
type ImportName struct {
	Name string
	As   string
	Span pyparse.Span
}
