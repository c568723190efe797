package analysis

import (
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// How a pallas_call is configured, read from the values the interpreter
// evaluated: its keywords (grid, in_specs, out_specs, out_shape,
// scratch_shapes, grid_spec=PrefetchScalarGridSpec(...)), the operands of
// the first call recorded, the kernel and its functools.partial bindings;
// and the external calls a kernel body makes. The KernelConfig fact
// (facts_config.go) the PAL21x rules read is rendered from them; what is
// not a literal the analysis followed stays unknown.

// bodyCall is an external call a kernel body made, as recorded.
type bodyCall struct {
	qual string
	file *ir.Summary
	site *ir.Expr
}

// maxBodyCalls bounds the calls one kernel scan records.
const maxBodyCalls = 512

// bodyCall records an external call made while a kernel body is scanned.
func (in *interp) bodyCall(qual string, site *ir.Expr) {
	sc := in.cur.Scan
	if sc == nil || site == nil || qual == "?" || len(sc.calls) >= maxBodyCalls {
		return
	}
	sc.calls = append(sc.calls, bodyCall{qual: qual, file: in.file, site: site})
}

// renderBodyCalls runs for every kernel call after every edit that
// resumed the analysis: its slice is sized at once (grown by append, it
// was a tenth of the bytes a resume allocates on tpu-inference).
func renderBodyCalls(calls []bodyCall) []BodyCall {
	out := make([]BodyCall, 0, len(calls))
	for _, c := range calls {
		if c.file != nil {
			out = append(out, BodyCall{Location: Locate(c.file, c.site.Span), API: c.qual})
		}
	}
	return out
}

// kernelConfig renders what is known of a pallas_call's configuration.
func kernelConfig(kc *kernelCall) *KernelConfig {
	k := kc.k
	if k.Entry != "pallas_call" || k.Op {
		return nil
	}
	cfg := &KernelConfig{}
	cfg.Interpret, _ = interpretMode(k.Kw["interpret"])
	src, exprs, ok := gridSource(k)
	if !ok {
		cfg.GridLen, cfg.NumScalarPrefetch, cfg.Scratch = -1, -1, -1
		cfg.InSpecs = SpecList{Present: true}
		cfg.OutSpecs = SpecList{Present: true}
	} else {
		cfg.GridLen = gridLen(src["grid"], exprs["grid"])
		cfg.NumScalarPrefetch = optInt(src["num_scalar_prefetch"])
		cfg.Scratch = scratchLen(src["scratch_shapes"], exprs["scratch_shapes"])
		cfg.InSpecs = specList(k, src["in_specs"], exprs["in_specs"])
		cfg.OutSpecs = specList(k, src["out_specs"], exprs["out_specs"])
	}
	if a := kc.operands; a != nil && !a.opaque && len(a.kw) == 0 && operandsInline(kc.site) {
		cfg.OperandsKnown = true
		for _, v := range a.pos {
			f := arrayFact(v)
			if !kc.shapesTrusted {
				f.Shape, f.DType = nil, ""
			}
			cfg.Operands = append(cfg.Operands, f)
		}
	}
	cfg.Outs, cfg.OutSingle, cfg.OutsKnown = outShapes(k.Kw["out_shape"], argExpr(k.Site, -1, "out_shape"))
	cfg.Kernel = kernelSig(k)
	return cfg
}

// configFiles lists the files other than the kernel's that its config
// locates anything in (BlockSpecs and index maps built elsewhere).
func configFiles(kc *kernelCall, add func(*ir.Summary)) {
	src, _, ok := gridSource(kc.k)
	if !ok {
		return
	}
	for _, key := range []string{"in_specs", "out_specs"} {
		for _, it := range seqItems(src[key]) {
			if c, ok := it.(*vExtCall); ok {
				add(c.File)
				if f, ok := argAt(args{pos: c.Args, kw: c.Kw}, 1, "index_map").(*vFunc); ok {
					add(f.Def.File)
				}
				if f, ok := argAt(args{pos: c.Args, kw: c.Kw}, 0, "block_shape").(*vFunc); ok {
					add(f.Def.File)
				}
			}
		}
	}
	if f := kernelFunc(kc.k.Body); f != nil {
		add(f.Def.File)
	}
}

// gridSource returns the values of grid, in_specs, out_specs,
// num_scalar_prefetch and scratch_shapes, and the expressions they are
// written as where that is in the call (nil elsewhere): the pallas_call's
// own keywords, or its grid_spec's arguments. false when grid_spec is not
// a GridSpec call.
func gridSource(k *kernelDecl) (map[string]value, map[string]*ir.Expr, bool) {
	kw := k.Kw
	names := []string{"grid", "in_specs", "out_specs", "num_scalar_prefetch", "scratch_shapes"}
	exprs := map[string]*ir.Expr{}
	gs, ok := kw["grid_spec"]
	if !ok || isNone(gs) {
		for _, n := range names {
			exprs[n] = argExpr(k.Site, -1, n)
		}
		return kw, exprs, true
	}
	c, ok := gs.(*vExtCall)
	if !ok || !strings.HasPrefix(c.Qual, "jax.") || !strings.HasSuffix(c.Qual, "GridSpec") {
		return nil, nil, false
	}
	names = []string{"grid", "in_specs", "out_specs", "scratch_shapes"}
	if strings.HasSuffix(c.Qual, "PrefetchScalarGridSpec") {
		names = []string{"num_scalar_prefetch", "grid", "in_specs", "out_specs", "scratch_shapes"}
	}
	out := map[string]value{}
	for i, n := range names {
		if v := argAt(args{pos: c.Args, kw: c.Kw}, i, n); v != nil {
			out[n] = v
			if c.Site != nil {
				exprs[n] = argExpr(c.Site, i, n)
			}
		}
	}
	if _, ok := out["scratch_shapes"]; !ok {
		if v, ok := kw["scratch_shapes"]; ok {
			out["scratch_shapes"], exprs["scratch_shapes"] = v, argExpr(k.Site, -1, "scratch_shapes")
		}
	}
	return out, exprs, true
}

// trustedSeq returns v as a sequence whose length is known: a tuple, or a
// list written inline as e (a list bound to a name may have been appended
// to since it was built).
func trustedSeq(v value, e *ir.Expr) (*vSeq, bool) {
	s, ok := v.(*vSeq)
	if !ok {
		return nil, false
	}
	return s, !s.List || inlineDisplay(e)
}

// inlineDisplay: e is a list/tuple display with no *spread in it, or
// displays joined by + or repeated by * an int ([sem] * 2).
func inlineDisplay(e *ir.Expr) bool {
	if e != nil && e.Kind == ir.ExBinOp && len(e.Args) == 2 {
		l, r := e.Args[0], e.Args[1]
		switch e.Op() {
		case "+":
			return inlineDisplay(l) && inlineDisplay(r)
		case "*":
			return inlineDisplay(l) && r.Kind == ir.ExConst || inlineDisplay(r) && l.Kind == ir.ExConst
		}
	}
	if e == nil || (e.Kind != ir.ExList && e.Kind != ir.ExTuple && e.Kind != ir.ExSet) {
		return false
	}
	return !slices.ContainsFunc(e.Args, func(a *ir.Expr) bool { return a.Kind == ir.ExStarred })
}

// operandsInline: the kernel call's positional arguments are written one
// by one (a *spread list may have grown since it was built).
func operandsInline(site *ir.Expr) bool {
	if site == nil || site.Kind != ir.ExCall {
		return false
	}
	for _, a := range site.Args {
		if a.Kind == ir.ExStarred && !inlineDisplay(a.X) {
			return false
		}
	}
	return true
}

// gridLen is len(grid): 0 when absent or None, 1 for an int.
func gridLen(v value, e *ir.Expr) int {
	switch v := v.(type) {
	case nil:
		return 0
	case *vSeq:
		if _, ok := trustedSeq(v, e); !ok {
			return -1
		}
		return len(v.Items)
	case *vConst:
		switch v.C.Kind {
		case ir.ConstNone:
			return 0
		case ir.ConstInt:
			return 1
		}
	}
	return -1
}

func optInt(v value) int {
	if v == nil || isNone(v) {
		return 0
	}
	if n, ok := intConst(v); ok && n >= 0 {
		return int(n)
	}
	return -1
}

// scratchLen is the number of scratch refs: -1 unless every entry is one
// (a pltpu.VMEM(...) call, a semaphore type).
func scratchLen(v value, e *ir.Expr) int {
	if v == nil || isNone(v) {
		return 0
	}
	s, ok := trustedSeq(v, e)
	if !ok {
		return -1
	}
	for _, it := range s.Items {
		switch it.(type) {
		case *vExtCall, *vExternal:
		default:
			return -1
		}
	}
	return len(s.Items)
}

func arrayFact(v value) ArrayFact {
	var f ArrayFact
	if c, ok := v.(*vExtCall); ok {
		_, f.Array = shapeArg[canonicalArrayAPI(c.Qual)]
	}
	if s, ok := arrayShape(v); ok {
		if dims, ok := knownShape(s); ok {
			f.Shape, f.DType = dims, arrayDtype(v)
		}
	}
	return f
}

// outShapes reads out_shape: a sequence of arrays, or one array made by a
// call the analysis knows (anything else could be a pytree).
func outShapes(v value, e *ir.Expr) (outs []ArrayFact, single, known bool) {
	switch v := v.(type) {
	case *vSeq:
		if _, ok := trustedSeq(v, e); !ok {
			return nil, false, false
		}
		for _, it := range v.Items {
			outs = append(outs, arrayFact(it))
		}
		return outs, false, true
	case *vExtCall:
		if _, ok := shapeArg[canonicalArrayAPI(v.Qual)]; ok {
			return []ArrayFact{arrayFact(v)}, true, true
		}
	}
	return nil, false, false
}

func specList(k *kernelDecl, v value, e *ir.Expr) SpecList {
	if v == nil || isNone(v) {
		return SpecList{}
	}
	l := SpecList{Present: true}
	if e != nil && k.File != nil {
		l.Loc = Locate(k.File, e.Span)
	}
	switch v := v.(type) {
	case *vSeq:
		if _, ok := trustedSeq(v, e); !ok {
			return l
		}
		l.Known = true
		for _, it := range v.Items {
			l.Specs = append(l.Specs, specFact(it))
		}
	case *vExtCall:
		if isBlockSpec(v) {
			l.Known, l.Single = true, true
			l.Specs = []SpecFact{specFact(v)}
		}
	}
	return l
}

func isBlockSpec(c *vExtCall) bool {
	return strings.HasPrefix(c.Qual, "jax.") && strings.HasSuffix(c.Qual, ".BlockSpec")
}

func specFact(v value) SpecFact {
	c, ok := v.(*vExtCall)
	if !ok || !isBlockSpec(c) || c.File == nil || c.Site == nil {
		return SpecFact{}
	}
	s := SpecFact{BlockSpec: true, Loc: Locate(c.File, c.Site.Span), Call: c.Site, File: c.File}
	a := args{pos: c.Args, kw: c.Kw}
	bsPos, imPos := 0, 1
	if oldOrder(c) {
		s.OldOrder, bsPos, imPos = true, 1, 0
	} else if newOrder(c) {
		s.NewOrder = true
	}
	if bs := argAt(a, bsPos, "block_shape"); bs != nil && !isNone(bs) {
		s.HasBlock = true
		if e := argExpr(c.Site, bsPos, "block_shape"); e != nil {
			s.BlockLoc = Locate(c.File, e.Span)
		}
		if seq, ok := trustedSeq(bs, argExpr(c.Site, bsPos, "block_shape")); ok {
			s.BlockKnown = true
			for _, d := range seq.Items {
				s.Block = append(s.Block, blockDim(d))
			}
		}
	}
	if im, ok := argAt(a, imPos, "index_map").(*vFunc); ok {
		s.IndexMap = indexMapFact(im)
		if e := argExpr(c.Site, imPos, "index_map"); e != nil {
			s.IndexMapLoc = Locate(c.File, e.Span)
		}
	}
	if ms := argAt(a, 2, "memory_space"); ms != nil && !isNone(ms) {
		s.MemorySpace = "?"
		if ext, ok := ms.(*vExternal); ok {
			s.MemorySpace = ext.Qual[strings.LastIndexByte(ext.Qual, '.')+1:]
		}
	}
	return s
}

// oldOrder: BlockSpec(index_map, block_shape), the order of JAX 0.4.30
// and before: the first positional argument is a function written as a
// lambda or a name (not the result of a call), the second is not one.
func oldOrder(c *vExtCall) bool {
	if len(c.Args) < 1 || len(c.Site.Args) < 1 {
		return false
	}
	if _, ok := c.Args[0].(*vFunc); !ok {
		return false
	}
	if k := c.Site.Args[0].Kind; k != ir.ExLambda && k != ir.ExName && k != ir.ExAttr {
		return false
	}
	return len(c.Args) < 2 || !isCallable(c.Args[1])
}

// newOrder: BlockSpec(block_shape, index_map) with both positional, the
// second a function written as a lambda or a name.
func newOrder(c *vExtCall) bool {
	if len(c.Args) < 2 || len(c.Site.Args) < 2 || isCallable(c.Args[0]) {
		return false
	}
	if _, ok := c.Args[1].(*vFunc); !ok {
		return false
	}
	k := c.Site.Args[1].Kind
	return k == ir.ExLambda || k == ir.ExName || k == ir.ExAttr
}

// argExpr is the expression of a call's argument, by position or keyword.
func argExpr(call *ir.Expr, pos int, kw string) *ir.Expr {
	for _, k := range call.Kw() {
		if k.Name == kw {
			return k.Value
		}
	}
	if pos >= 0 && pos < len(call.Args) && !slices.ContainsFunc(call.Args[:pos+1], func(e *ir.Expr) bool { return e.Kind == ir.ExStarred }) {
		return call.Args[pos]
	}
	return nil
}

func blockDim(v value) BlockDim {
	if n, ok := intConst(v); ok {
		return BlockDim{Size: int(n), Known: true}
	}
	if isNone(v) {
		return BlockDim{Squeezed: true}
	}
	if c, ok := v.(*vExtCall); ok && strings.HasPrefix(c.Qual, "jax.") && strings.HasSuffix(c.Qual, ".Squeezed") {
		return BlockDim{Squeezed: true}
	}
	return BlockDim{}
}

func indexMapFact(f *vFunc) *IndexMapFact {
	d := f.Def
	im := &IndexMapFact{Name: d.Name, Sig: signature(f), Returns: -1}
	if d.File != nil {
		im.Loc = Locate(d.File, d.Span)
	}
	if d.Lambda {
		im.Name = "<lambda>"
	}
	if r := onlyReturn(d); r != nil {
		switch r.Kind {
		case ir.ExTuple:
			if !slices.ContainsFunc(r.Args, func(e *ir.Expr) bool { return e.Kind == ir.ExStarred }) {
				im.Returns = len(r.Args)
			}
		case ir.ExConst:
			im.Returns = 1
		}
	}
	return im
}

// onlyReturn returns the value of a function's one return: a lambda's
// body, or a def whose last statement is its only return, with no block
// statement (if, loop, with, try, def) that could hold another.
func onlyReturn(d *ir.FuncDef) *ir.Expr {
	if len(d.Body) == 0 {
		return nil
	}
	last := d.Body[len(d.Body)-1]
	if last.Kind != ir.StReturn {
		return nil
	}
	for _, st := range d.Body[:len(d.Body)-1] {
		switch st.Kind {
		case ir.StExpr, ir.StAssign, ir.StImport:
		default:
			return nil
		}
	}
	return last.Value
}

// signature counts f's positional parameters (self excluded for a bound
// method).
func signature(f *vFunc) Signature {
	var s Signature
	for i, p := range f.Def.Params {
		if i == 0 && f.Self != nil {
			continue
		}
		switch p.Kind {
		case ir.ParamNormal, ir.ParamPosOnly:
			s.Max++
			s.Names = append(s.Names, p.Name)
			if p.Default == nil {
				s.Required++
			}
		case ir.ParamVarArgs:
			s.VarArgs = true
		}
	}
	return s
}

func kernelFunc(v value) *vFunc {
	switch v := v.(type) {
	case *vFunc:
		return v
	case *vPartial:
		return kernelFunc(v.Fn)
	}
	return nil
}

// kernelSig reads the kernel's signature through functools.partial.
func kernelSig(k *kernelDecl) KernelSig {
	var ks KernelSig
	v := k.Body
	bound := 0
	var names []string
	for depth := 0; depth < 4; depth++ {
		p, ok := v.(*vPartial)
		if !ok {
			break
		}
		bound += len(p.Args)
		for name := range p.Kw {
			names = append(names, name)
		}
		v = p.Fn
	}
	f, ok := v.(*vFunc)
	if !ok || k.File == nil {
		return ks
	}
	ks.Known, ks.Name, ks.Sig, ks.Bound = true, f.Def.Name, signature(f), bound
	slices.Sort(names)
	ks.BoundNames = names
	if f.Def.Lambda {
		ks.Name = "<lambda>"
	}
	// A keyword bound to a positional parameter shifts what Python
	// reports: not modelled.
	for i, p := range f.Def.Params {
		if (p.Kind == ir.ParamNormal || p.Kind == ir.ParamPosOnly) && slices.Contains(names, p.Name) && !(i == 0 && f.Self != nil) {
			ks.Known = false
		}
	}
	if e := argExpr(k.Site, 0, "kernel"); e != nil {
		ks.Loc = Locate(k.File, e.Span)
	} else {
		ks.Known = false
	}
	return ks
}
