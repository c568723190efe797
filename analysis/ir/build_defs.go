package ir

import (
	"bytes"
	"strings"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

func (b *builder) qual(name string) string {
	if len(b.quals) == 0 {
		return name
	}
	return strings.Join(b.quals, ".") + "." + name
}

func (b *builder) decorated(id pp.NodeID) *Stmt {
	t := b.t
	var decos []*Expr
	for _, c := range t.NamedChildren(id) {
		if t.Kind(c) == pp.KindDecorator {
			if x := t.NamedChildren(c); len(x) > 0 {
				decos = append(decos, b.expr(x[0]))
			}
		}
	}
	def := t.ChildByField(id, pp.FieldDefinition)
	s := &Stmt{Span: b.span(id)}
	switch t.Kind(def) {
	case pp.KindFunctionDef:
		s.Kind, s.Def = StDef, b.funcDef(def, decos)
		s.Def.Span = b.span(id)
		s.Def.MocksSPMD = mocksSPMD(t.Src, s.Def.Span) // the decorators too
	case pp.KindClassDef:
		s.Kind, s.Class = StClass, b.classDef(def, decos)
		s.Class.Span = b.span(id)
	default:
		s.Kind = StOther
	}
	return s
}

func (b *builder) funcDef(id pp.NodeID, decos []*Expr) *FuncDef {
	t := b.t
	name := t.ChildByField(id, pp.FieldName)
	f := &FuncDef{Name: t.LeafText(name), Span: b.span(id), NameSpan: b.span(name), Decorators: decos, File: b.sum}
	f.Qual = b.qual(f.Name)
	f.Params = b.params(t.ChildByField(id, pp.FieldParams))
	b.quals = append(b.quals, f.Name, "<locals>")
	f.Body = b.block(t.ChildByField(id, pp.FieldBody))
	b.quals = b.quals[:len(b.quals)-2]
	f.MocksSPMD = mocksSPMD(t.Src, f.Span)
	b.sum.Defs = append(b.sum.Defs, f)
	return f
}

func (b *builder) lambda(id pp.NodeID) *FuncDef {
	t := b.t
	f := &FuncDef{Name: "<lambda>", Span: b.span(id), NameSpan: b.span(id), Lambda: true, File: b.sum}
	f.Qual = b.qual("<lambda>")
	f.Params = b.params(t.ChildByField(id, pp.FieldParams))
	body := t.ChildByField(id, pp.FieldBody)
	f.Body = []*Stmt{{Kind: StReturn, Span: b.span(body), Value: b.expr(body)}}
	b.sum.Defs = append(b.sum.Defs, f)
	return f
}

func (b *builder) params(id pp.NodeID) []Param {
	t := b.t
	var out []Param
	kwOnly := false
	for c := t.FirstChild(id); c != pp.NoNode; c = t.NextSibling(c) {
		p := Param{Kind: ParamNormal}
		if kwOnly {
			p.Kind = ParamKwOnly
		}
		switch t.Kind(c) {
		case pp.KindIdentifier:
			p.Name = b.name(c)
		case pp.KindDefaultParameter, pp.KindTypedDefaultParameter:
			p.Name = b.name(t.ChildByField(c, pp.FieldName))
			p.Default = b.expr(t.ChildByField(c, pp.FieldValue))
			p.Annotation = b.exprOrNil(t.ChildByField(c, pp.FieldType))
		case pp.KindTypedParameter:
			inner := t.NamedChildren(c)
			if len(inner) == 0 {
				continue
			}
			p.Annotation = b.exprOrNil(t.ChildByField(c, pp.FieldType))
			switch t.Kind(inner[0]) {
			case pp.KindListSplatPattern:
				p.Kind, kwOnly = ParamVarArgs, true
				p.Name = strings.TrimLeft(t.LeafText(inner[0]), "*")
			case pp.KindDictSplatPattern:
				p.Kind = ParamKwArgs
				p.Name = strings.TrimLeft(t.LeafText(inner[0]), "*")
			default:
				p.Name = b.name(inner[0])
			}
		case pp.KindListSplatPattern:
			p.Kind, kwOnly = ParamVarArgs, true
			p.Name = strings.TrimLeft(t.LeafText(c), "*")
		case pp.KindDictSplatPattern:
			p.Kind = ParamKwArgs
			p.Name = strings.TrimLeft(t.LeafText(c), "*")
		case pp.KindKeywordSeparator:
			kwOnly = true
			continue
		default:
			if t.LeafText(c) == "/" {
				for i := range out {
					out[i].Kind = ParamPosOnly
				}
			}
			continue
		}
		if p.Name != "" {
			out = append(out, p)
		}
	}
	return out
}

func (b *builder) exprOrNil(id pp.NodeID) *Expr {
	if id == pp.NoNode {
		return nil
	}
	return b.expr(id)
}

func (b *builder) classDef(id pp.NodeID, decos []*Expr) *ClassDef {
	t := b.t
	name := t.ChildByField(id, pp.FieldName)
	c := &ClassDef{Name: t.LeafText(name), Span: b.span(id), NameSpan: b.span(name), Decorators: decos, File: b.sum}
	c.Qual = b.qual(c.Name)
	if sup := t.ChildByField(id, pp.FieldSuperclasses); sup != pp.NoNode {
		for _, s := range t.NamedChildren(sup) {
			if t.Kind(s) != pp.KindKeywordArgument {
				c.Bases = append(c.Bases, b.expr(s))
			}
		}
	}
	b.quals = append(b.quals, c.Name)
	c.Body = b.block(t.ChildByField(id, pp.FieldBody))
	b.quals = b.quals[:len(b.quals)-1]
	b.sum.Classes = append(b.sum.Classes, c)
	return c
}

func (b *builder) importStmt(id pp.NodeID) *Import {
	t := b.t
	imp := &Import{From: t.Kind(id) == pp.KindImportFrom}
	if imp.From {
		m := t.ChildByField(id, pp.FieldModuleName)
		if t.Kind(m) == pp.KindRelativeImport {
			for _, c := range t.Children(m) {
				if t.Kind(c) == pp.KindImportPrefix {
					imp.Level = strings.Count(t.LeafText(c), ".")
				} else if t.Kind(c) == pp.KindDottedName {
					imp.Module = t.LeafText(c)
				}
			}
		} else {
			imp.Module = t.LeafText(m)
		}
		imp.Star = t.ChildOfKind(id, pp.KindWildcardImport) != pp.NoNode
	}
	for c := t.FirstChild(id); c != pp.NoNode; c = t.NextSibling(c) {
		if t.N(c).Field != pp.FieldName {
			continue
		}
		switch t.Kind(c) {
		case pp.KindDottedName:
			imp.Names = append(imp.Names, ImportName{Name: t.LeafText(c), Span: b.span(c)})
		case pp.KindAliasedImport:
			imp.Names = append(imp.Names, ImportName{
				Name: t.LeafText(t.ChildByField(c, pp.FieldName)),
				As:   t.LeafText(t.ChildByField(c, pp.FieldAlias)), Span: b.span(c)})
		}
	}
	return imp
}

// mocksSPMD recognises tests that replace shard_map or a collective with
// a fake (mock.patch("jax.shard_map"), monkeypatch.setattr(jax,
// "shard_map", ...), mock.patch.object(jax.lax, "all_to_all", ...)) from
// the text of the definition at sp, comments included: the code under
// test then never meets the real one, so no verdict about its SPMD
// context would be honest. A collective counts when its name is quoted
// (the patched attribute) or ends a quoted dotted path.
func mocksSPMD(src []byte, sp pp.Span) bool {
	txt := src[sp.Start:sp.End]
	// The mocking words first: most definitions have none, and the
	// collectives' names are a dozen scans.
	if !bytes.Contains(txt, []byte("patch")) && !bytes.Contains(txt, []byte("setattr")) && !bytes.Contains(txt, []byte("Mock")) {
		return false
	}
	return bytes.Contains(txt, []byte("shard_map")) || quotesCollective(txt)
}

// quotesCollective reports whether txt holds a collective's name as the
// end of a string literal: "psum", 'jax.lax.all_to_all'.
func quotesCollective(txt []byte) bool {
	for name := range CollectiveNames {
		for i := 0; ; {
			j := bytes.Index(txt[i:], []byte(name))
			if j < 0 {
				break
			}
			j += i
			end := j + len(name)
			if end < len(txt) && (txt[end] == '"' || txt[end] == '\'') && j > 0 {
				switch txt[j-1] {
				case '"', '\'', '.':
					return true
				}
			}
			i = end
		}
	}
	return false
}
