package analysis

import (
	"maps"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// The kernel-configuration facts (PAL201, PAL204): what a kernel call's
// compiler params say and whether its body reaches the barrier
// semaphore. They are gathered with the kernel's effects (one scan of the
// body) and kept as references into the IR, rendered by fact().

// loweringConfig is what a scan recorded, before rendering.
type loweringConfig struct {
	params      *CompilerParams
	paramsGiven bool
	bodyBackend lowering.Backend
	barrierSite *ir.Expr
	barrierFile *ir.Summary
	bodyRead    bool
}

// noteBarrier records the first barrier-semaphore call of a kernel body.
func (in *interp) noteBarrier(qual string, site *ir.Expr) {
	if in.cur.Kind != ctxKernel || in.cur.Scan == nil || site == nil || in.cur.Scan.barrierSite != nil {
		return
	}
	if strings.HasSuffix(qual, ".get_barrier_semaphore") {
		in.cur.Scan.barrierSite, in.cur.Scan.barrierFile = site, in.file
	}
}

// noteMarker records the backend of an API the table does not list,
// called in a kernel body: platform evidence for PAL201 only (the SPMD
// rules keep their own, stricter, reading).
func (in *interp) noteMarker(qual string) {
	if in.cur.Kind != ctxKernel || in.cur.Scan == nil {
		return
	}
	switch backendOfQual(qual) {
	case lowering.BackendTPU:
		in.cur.Scan.markTPU = true
	case lowering.BackendGPU:
		in.cur.Scan.markGPU = true
	}
}

// noteOpaqueKernelCall records that a kernel body called a value the
// analysis does not know by a plain name (a function-valued parameter,
// say); methods of unknown values (refs, arrays) are not helpers.
func (in *interp) noteOpaqueKernelCall(fn value, site *ir.Expr) {
	if in.cur.Scan == nil || site == nil || site.Kind != ir.ExCall || site.X == nil || site.X.Kind != ir.ExName {
		return
	}
	if _, ok := fn.(*vUnknown); ok {
		in.cur.Scan.opaque = true
	}
}

// loweringConfigOf reads the configuration of kernel k after its scan.
func (in *interp) loweringConfigOf(k *kernelDecl, scan *kernelScan) loweringConfig {
	c := loweringConfig{barrierSite: scan.barrierSite, barrierFile: scan.barrierFile, bodyRead: scan.read && !scan.opaque}
	tpu, gpu := scan.tpu || scan.markTPU, scan.gpu || scan.markGPU
	switch backendOfQual(k.API) {
	case lowering.BackendGPU:
		gpu = true
	case lowering.BackendTPU:
		tpu = true
	}
	for _, key := range slices.Sorted(maps.Keys(k.Kw)) {
		if key == "compiler_params" {
			continue
		}
		switch valueBackend(k.Kw[key], 4) {
		case lowering.BackendTPU:
			tpu = true
		case lowering.BackendGPU:
			gpu = true
		}
	}
	switch {
	case tpu && !gpu:
		c.bodyBackend = lowering.BackendTPU
	case gpu && !tpu:
		c.bodyBackend = lowering.BackendGPU
	}
	if v, ok := k.Kw["compiler_params"]; ok && !isNone(v) {
		c.paramsGiven = true
		c.params = compilerParams(v)
	}
	return c
}

// compilerParams reads a params constructor call: pltpu.CompilerParams(...)
// and its siblings of the other platforms.
func compilerParams(v value) *CompilerParams {
	if d, ok := v.(*vDict); ok {
		return dictCompilerParams(d)
	}
	call, ok := v.(*vExtCall)
	if !ok || call.Site == nil || call.Site.Kind != ir.ExCall {
		return nil
	}
	api, ok := lowering.Lookup(call.Qual)
	if !ok || (api.Role != lowering.RoleTPUCompilerParams && api.Role != lowering.RoleGPUCompilerParams) {
		return nil
	}
	p := &CompilerParams{Qual: api.Name, Call: call.Site, Opaque: len(call.Site.Args) > 0}
	for i := range call.Site.Kw() {
		kw := &call.Site.Kw()[i]
		switch kw.Name {
		case "":
			p.Opaque = true
		case "collective_id":
			cv := call.Kw[kw.Name]
			if isNone(cv) {
				p.CollectiveIDKnown = true
				continue
			}
			p.CollectiveID, p.IDGiven = kw, true
			_, isConst := cv.(*vConst)
			p.CollectiveIDKnown = isConst
		case "allow_collective_id_without_custom_barrier":
			p.Allow = kw
			if c, ok := call.Kw[kw.Name].(*vConst); ok && c.C.Kind == ir.ConstBool {
				p.AllowValue, p.AllowKnown = c.C.B, true
			}
		}
	}
	return p
}

// dictCompilerParams reads the dict form of the TPU params, the
// {"mosaic": {...}} of JAX 0.4 to 0.6.0 (lowering.TPUParamsDictQual).
func dictCompilerParams(d *vDict) *CompilerParams {
	m, ok := d.lookup("mosaic")
	if !ok {
		return nil
	}
	inner, ok := m.(*vDict)
	if !ok {
		return nil
	}
	p := &CompilerParams{Qual: lowering.TPUParamsDictQual, Opaque: inner.Open}
	for _, k := range inner.Keys {
		if _, ok := constStr(k); !ok {
			p.Opaque = true // a key read from a variable may be collective_id
		}
	}
	cv, ok := inner.lookup("collective_id")
	switch {
	case !ok:
	case isNone(cv):
		p.CollectiveIDKnown = true
	default:
		_, isConst := cv.(*vConst)
		p.IDGiven, p.CollectiveIDKnown = true, isConst
	}
	return p
}

// render turns the record into the fact of a kernel declared by the call
// decl in file.
func (c loweringConfig) render(decl *ir.Expr, file *ir.Summary) LoweringConfig {
	out := LoweringConfig{Params: c.params, ParamsGiven: c.paramsGiven, BodyBackend: c.bodyBackend,
		DeclCall: decl, DeclFile: file, BodyRead: c.bodyRead}
	if c.barrierSite != nil && c.barrierFile != nil {
		loc := Locate(c.barrierFile, c.barrierSite.Span)
		out.Barrier = &loc
	}
	if decl != nil && decl.Kind == ir.ExCall {
		for i := range decl.Kw() {
			if decl.Kw()[i].Name == "compiler_params" {
				out.ParamsKeyword = &decl.Kw()[i]
			}
		}
	}
	return out
}

// deviceIDArg locates the device_id argument of a communicating op's
// call (the keyword, or the positional argument remoteComm read), and
// says whether it is a dict display whose keys are string literals: keys
// read from variables may differ between the states a kernel is reached
// in, while its effects are computed once.
func deviceIDArg(op *commOp) (*Location, bool) {
	if op.Site == nil || op.File == nil || op.Site.Kind != ir.ExCall {
		return nil, false
	}
	var arg *ir.Expr
	for _, kw := range op.Site.Kw() {
		if kw.Name == "device_id" && kw.Value != nil {
			arg = kw.Value
		}
	}
	if arg == nil && op.Kind == "remote DMA" && len(op.Site.Args) > 4 && op.Site.Args[4].Kind != ir.ExStarred {
		arg = op.Site.Args[4]
	}
	if arg == nil {
		return nil, false
	}
	loc := Locate(op.File, arg.Span)
	literal := arg.Kind == ir.ExDict
	for _, kw := range arg.Kw() {
		literal = literal && kw.Key != nil && kw.Key.Kind == ir.ExConst && kw.Key.Const() != nil && kw.Key.Const().Kind == ir.ConstStr
	}
	return &loc, literal
}
