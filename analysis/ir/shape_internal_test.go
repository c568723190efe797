package ir

import (
	"reflect"
	"strings"
	"testing"
)

// TestShapeWalkCoversTheIR lists the fields of the IR types as SameShape
// and MoveTo know them. A field added to the IR must be compared (or
// moved, for positions) in shape.go, and then added here.
func TestShapeWalkCoversTheIR(t *testing.T) {
	known := map[reflect.Type]string{
		reflect.TypeFor[Expr]():       "Kind op Span Name X Args more",
		reflect.TypeFor[exprMore]():   "kw lambda c op",
		reflect.TypeFor[Keyword]():    "Name NameSpan Key Value",
		reflect.TypeFor[Const]():      "S I Kind B",
		reflect.TypeFor[Stmt]():       "Kind Aug Span Targets Value Cond Body Else Finally Items Def Class Import Main",
		reflect.TypeFor[WithItem]():   "Ctx Target",
		reflect.TypeFor[Import]():     "From Level Module Names Star",
		reflect.TypeFor[ImportName](): "Name As Span",
		reflect.TypeFor[Param]():      "Name Kind Default Annotation",
		reflect.TypeFor[FuncDef]():    "Name Qual Span NameSpan Params Decorators Body Lambda File MocksSPMD",
		reflect.TypeFor[ClassDef]():   "Name Qual Span NameSpan Bases Decorators Body File",
		reflect.TypeFor[APIRef]():     "Kind Qual Span Keyword Root Call",
		reflect.TypeFor[Summary]():    "Path Src Hash Body Defs Classes Refs Imports Comments SyntaxErrors ParseError UsesPallas NamesSPMD mapper",
	}
	for ty, want := range known {
		var got []string
		for i := 0; i < ty.NumField(); i++ {
			got = append(got, ty.Field(i).Name)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s has fields %q; shape.go knows %q: teach SameShape/MoveTo the new field, then update this list", ty.Name(), strings.Join(got, " "), want)
		}
	}
}
