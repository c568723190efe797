package analysis

import (
	"bytes"
	"encoding/gob"
	"fmt"
)

// FormatVersion names the layout of encoded summaries and results; bump
// it whenever Summary, the IR or Result change shape or meaning, so caches
// written by an older build are never read.
const FormatVersion = "pallas-ls-summary-3"

// Store persists summaries and results between runs (a cache). Load
// reports misses and unreadable entries alike as false; the engine then
// recomputes and saves again. Implementations must be safe for concurrent
// use.
type Store interface {
	Load(kind, key string) ([]byte, bool)
	Save(kind, key string, data []byte)
}

// EncodeSummary serialises a summary. The IR's back-pointers to the
// summary are not written; DecodeSummary restores them.
func EncodeSummary(s *Summary) ([]byte, error) {
	var buf bytes.Buffer
	c := *s
	c.Defs, c.Classes, c.mapper = nil, nil, nil
	c.Src = nil // the caller has the file; DecodeSummary's caller sets it
	detach(c.Body)
	defer attach(s, s.Body)
	err := gob.NewEncoder(&buf).Encode(&c)
	return buf.Bytes(), err
}

// DecodeSummary is the inverse of EncodeSummary; the caller sets Src.
func DecodeSummary(data []byte) (s *Summary, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("corrupt summary: %v", r)
		}
	}()
	s = &Summary{}
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(s); err != nil {
		return nil, err
	}
	attach(s, s.Body)
	return s, nil
}

// detach clears the File back-pointers (they would make gob recurse).
func detach(body []*Stmt) {
	walkDefs(body, func(f *FuncDef) { f.File = nil }, func(c *ClassDef) { c.File = nil })
}

// attach restores File back-pointers and the Defs/Classes lists.
func attach(s *Summary, body []*Stmt) {
	s.Defs, s.Classes = nil, nil
	walkDefs(body, func(f *FuncDef) {
		f.File = s
		s.Defs = append(s.Defs, f)
	}, func(c *ClassDef) {
		c.File = s
		s.Classes = append(s.Classes, c)
	})
}

// walkDefs visits every def, lambda and class of a body, nested ones too.
func walkDefs(body []*Stmt, fd func(*FuncDef), cd func(*ClassDef)) {
	var stmts func([]*Stmt)
	var expr func(*Expr)
	expr = func(e *Expr) {
		if e == nil {
			return
		}
		if e.Lambda != nil {
			fd(e.Lambda)
			for _, p := range e.Lambda.Params {
				expr(p.Default)
			}
			stmts(e.Lambda.Body)
		}
		expr(e.X)
		for _, a := range e.Args {
			expr(a)
		}
		for _, k := range e.Kw {
			expr(k.Key)
			expr(k.Value)
		}
	}
	stmts = func(body []*Stmt) {
		for _, st := range body {
			for _, e := range []*Expr{st.Value, st.Cond} {
				expr(e)
			}
			for _, t := range st.Targets {
				expr(t)
			}
			for _, it := range st.Items {
				expr(it.Ctx)
				expr(it.Target)
			}
			if st.Def != nil {
				fd(st.Def)
				for _, d := range st.Def.Decorators {
					expr(d)
				}
				for _, p := range st.Def.Params {
					expr(p.Default)
					expr(p.Annotation)
				}
				stmts(st.Def.Body)
			}
			if st.Class != nil {
				cd(st.Class)
				for _, d := range st.Class.Decorators {
					expr(d)
				}
				for _, b := range st.Class.Bases {
					expr(b)
				}
				stmts(st.Class.Body)
			}
			stmts(st.Body)
			stmts(st.Else)
			stmts(st.Finally)
		}
	}
	stmts(body)
}
