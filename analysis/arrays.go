package analysis

import (
	"sort"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// Arrays of known shape: the results of the JAX calls whose shape is an
// argument (jnp.ones((m, n)), jax.ShapeDtypeStruct(shape, dtype),
// jnp.zeros_like(x), jax.random.normal(key, shape)), so that `x.shape`,
// `x.shape[0]` and `x.ndim` of such a value are known. The value stays the
// vExtCall of its call: only reading its shape is new.

// shapeArg says where each shape-taking API has its shape: the position
// and keyword of the shape, or of the array whose shape it copies (like).
var shapeArg = map[string]struct {
	pos  int
	kw   string
	like bool
}{
	"jax.numpy.ones": {0, "shape", false}, "jax.numpy.zeros": {0, "shape", false},
	"jax.numpy.empty": {0, "shape", false}, "jax.numpy.full": {0, "shape", false},
	"jax.ShapeDtypeStruct": {0, "shape", false},
	"jax.numpy.ones_like":  {0, "a", true}, "jax.numpy.zeros_like": {0, "a", true},
	"jax.numpy.empty_like": {0, "prototype", true}, "jax.numpy.full_like": {0, "a", true},
	"jax.random.normal": {1, "shape", false}, "jax.random.uniform": {1, "shape", false},
}

// arrayShape returns the shape of v as a tuple value, when v is made by a
// shape-taking call whose shape argument is a tuple (or an int).
func arrayShape(v value) (*vSeq, bool) {
	return arrayShapeDepth(v, 4)
}

func arrayShapeDepth(v value, depth int) (*vSeq, bool) {
	c, ok := v.(*vExtCall)
	if !ok || depth < 0 {
		return nil, false
	}
	spec, ok := shapeArg[canonicalArrayAPI(c.Qual)]
	if !ok {
		return nil, false
	}
	arg := argAt(args{pos: c.Args, kw: c.Kw}, spec.pos, spec.kw)
	if spec.like {
		if shape, ok := c.Kw["shape"]; ok && !isNone(shape) {
			arg, spec.like = shape, false
		} else {
			return arrayShapeDepth(arg, depth-1)
		}
	}
	switch a := arg.(type) {
	case *vSeq:
		return a, true
	case *vConst:
		if a.C.Kind == ir.ConstInt {
			return &vSeq{Items: []value{a}}, true
		}
	}
	return nil, false
}

// dtypeArg says where each shape-taking API has its dtype (position and
// keyword); an API without an entry, or a call without the argument, has
// no dtype the analysis knows (the defaults depend on jax_enable_x64).
var dtypeArg = map[string]int{
	"jax.numpy.ones": 1, "jax.numpy.zeros": 1, "jax.numpy.empty": 1, "jax.numpy.full": 2,
	"jax.ShapeDtypeStruct": 1,
	"jax.numpy.ones_like":  1, "jax.numpy.zeros_like": 1, "jax.numpy.empty_like": 1, "jax.numpy.full_like": 2,
	"jax.random.normal": 2, "jax.random.uniform": 2,
}

// arrayDtype returns the dtype name of an array made by a shape-taking
// call ("" when not known): its dtype argument (jnp.float32, np.int8,
// "bfloat16", jnp.dtype("int32"), y.dtype of a known array), else for the
// *_like calls the dtype of the array they copy.
func arrayDtype(v value) string { return arrayDtypeDepth(v, 4) }

func arrayDtypeDepth(v value, depth int) string {
	c, ok := v.(*vExtCall)
	if !ok || depth < 0 {
		return ""
	}
	q := canonicalArrayAPI(c.Qual)
	pos, ok := dtypeArg[q]
	if !ok {
		return ""
	}
	if d := argAt(args{pos: c.Args, kw: c.Kw}, pos, "dtype"); d != nil && !isNone(d) {
		return dtypeName(d, depth-1)
	}
	if spec := shapeArg[q]; spec.like {
		return arrayDtypeDepth(argAt(args{pos: c.Args, kw: c.Kw}, spec.pos, spec.kw), depth-1)
	}
	return ""
}

// dtypeName reads a dtype value: a dtype class of jax.numpy, numpy or
// ml_dtypes, its name as a string, jnp.dtype(...) of one, or x.dtype of an
// array whose dtype is known.
func dtypeName(v value, depth int) string {
	if depth < 0 {
		return ""
	}
	switch d := v.(type) {
	case *vExternal:
		for _, pre := range []string{"jax.numpy.", "numpy.", "ml_dtypes."} {
			if n, ok := strings.CutPrefix(d.Qual, pre); ok {
				return lowering.CanonicalDtype(n)
			}
		}
	case *vConst:
		if d.C.Kind == ir.ConstStr {
			return lowering.CanonicalDtype(d.C.S)
		}
	case *vExtCall:
		if (d.Qual == "jax.numpy.dtype" || d.Qual == "numpy.dtype") && len(d.Args) == 1 && len(d.Kw) == 0 {
			return dtypeName(d.Args[0], depth-1)
		}
	case *vMethod:
		if d.Name == "dtype" {
			return arrayDtypeDepth(d.Recv, depth-1)
		}
	}
	return ""
}

// canonicalArrayAPI maps the spellings of ShapeDtypeStruct to one name.
func canonicalArrayAPI(q string) string {
	if strings.HasSuffix(q, ".ShapeDtypeStruct") && strings.HasPrefix(q, "jax.") {
		return "jax.ShapeDtypeStruct"
	}
	return q
}

// arrayAttr reads .shape and .ndim of an array of known shape.
func arrayAttr(v *vExtCall, name string) (value, bool) {
	if name != "shape" && name != "ndim" {
		return nil, false
	}
	shape, ok := arrayShape(v)
	if !ok {
		return nil, false
	}
	if name == "ndim" {
		return intValue(int64(len(shape.Items))), true
	}
	return shape, true
}

// knownShape reads a shape tuple whose every dimension is a known int.
func knownShape(s *vSeq) ([]int, bool) {
	out := make([]int, 0, len(s.Items))
	for _, it := range s.Items {
		n, ok := intConst(it)
		if !ok {
			return nil, false
		}
		out = append(out, int(n))
	}
	return out, true
}

// outStructs lists the ShapeDtypeStruct calls of a kernel's outputs.
func outStructs(k *kernelDecl) []ShapeStruct {
	kw := "out_shape"
	if k.Entry == "kernel" {
		kw = "out_type"
	}
	if s, ok := k.Out.(*vSeq); ok {
		if _, ok := trustedSeq(s, argExpr(k.Site, 1, kw)); !ok {
			return nil
		}
		var out []ShapeStruct
		for _, it := range s.Items {
			out = append(out, shapeStructs(it, 2)...)
		}
		return out
	}
	return shapeStructs(k.Out, 2)
}

// shapeStructs lists the jax.ShapeDtypeStruct calls of a value: the value
// itself, or the items of a tuple (nested up to depth); lists nested in it
// are not trusted (something may have appended to them).
func shapeStructs(v value, depth int) []ShapeStruct {
	switch v := v.(type) {
	case *vExtCall:
		if canonicalArrayAPI(v.Qual) != "jax.ShapeDtypeStruct" || v.File == nil || v.Site == nil {
			return nil
		}
		return []ShapeStruct{shapeStruct(v)}
	case *vSeq:
		if depth == 0 || v.List {
			return nil
		}
		var out []ShapeStruct
		for _, it := range v.Items {
			out = append(out, shapeStructs(it, depth-1)...)
		}
		return out
	}
	return nil
}

// shapeStruct renders one ShapeDtypeStruct call: the keywords its value
// holds (partial bindings too), less those the call spells as None.
func shapeStruct(c *vExtCall) ShapeStruct {
	s := ShapeStruct{Location: Locate(c.File, c.Site.Span)}
	none := map[string]bool{}
	if c.Site.Kind == ir.ExCall {
		for _, kw := range c.Site.Kw() {
			switch {
			case kw.Name == "":
				s.Splat = true
			case kw.Value != nil && kw.Value.Kind == ir.ExConst && kw.Value.Const() != nil && kw.Value.Const().Kind == ir.ConstNone:
				none[kw.Name] = true
			}
		}
	}
	for name := range c.Kw {
		if !none[name] {
			s.Keywords = append(s.Keywords, name)
		}
	}
	sort.Strings(s.Keywords)
	return s
}

// reshaped is the shape of `a.reshape(d0, d1, ...)` or `a.reshape((d0,
// ...))` on an array a made by a shape-taking call: the dimensions, when
// every one is a literal positive int (a -1 needs a's size; a wrong
// product fails in JAX, never silently changes the shape). Only vmap's
// batch size reads it (collective.go): kernel operands keep arrayShape,
// whose shapes the PAL21x rules trust only where no transform slices them.
func reshaped(c *vExtCall) (*vSeq, bool) {
	base, ok := strings.CutSuffix(c.Qual, "().reshape")
	if !ok || len(c.Kw) > 0 || len(c.Args) == 0 {
		return nil, false
	}
	if _, ok := shapeArg[canonicalArrayAPI(base)]; !ok {
		return nil, false
	}
	dims := c.Args
	if s, ok := c.Args[0].(*vSeq); ok && len(c.Args) == 1 {
		dims = s.Items
	}
	for _, d := range dims {
		if n, ok := intConst(d); !ok || n <= 0 {
			return nil, false
		}
	}
	return &vSeq{Items: dims}, true
}

// Arrays built unsharded. pallas_call's abstract evaluation rejects
// operands and results whose types name a mesh axis ("pallas_call requires
// all mesh axes to be Manual", Explicit axes since 0.9); an array a
// constructor built without out_sharding= (or device=), inside a jit or
// eagerly under jax.set_mesh, has a replicated type, so a kernel whose
// operands and out_shape are all such never meets that check and fails
// at lowering instead (cannot be automatically partitioned). Checked with
// JAX 0.11.2 (PAL103/explicit_mesh_replicated_operands).
var unshardedMakers = map[string]bool{
	"jax.numpy.ones": true, "jax.numpy.zeros": true, "jax.numpy.empty": true, "jax.numpy.full": true,
	"jax.numpy.arange": true, "jax.numpy.eye": true,
	"jax.random.normal": true, "jax.random.uniform": true,
	// NumPy arrays have no sharding: a jit places them replicated.
	"numpy.ones": true, "numpy.zeros": true, "numpy.empty": true, "numpy.full": true, "numpy.arange": true,
}

// unshardedArray reports whether v is an array built unsharded (above).
func unshardedArray(v value) bool {
	c, ok := v.(*vExtCall)
	if !ok || !unshardedMakers[c.Qual] {
		return false
	}
	_, sharded := c.Kw["out_sharding"]
	_, placed := c.Kw["device"]
	return !sharded && !placed
}

// unshardedStructs reports whether out is one ShapeDtypeStruct without
// sharding=, or a tuple of them.
func unshardedStructs(out value) bool {
	switch v := out.(type) {
	case *vExtCall:
		if canonicalArrayAPI(v.Qual) != "jax.ShapeDtypeStruct" {
			return unshardedArray(v)
		}
		s, ok := v.Kw["sharding"]
		return !ok || isNone(s)
	case *vSeq:
		for _, it := range v.Items {
			if !unshardedStructs(it) {
				return false
			}
		}
		return len(v.Items) > 0
	}
	return false
}

// unshardedKernel reports whether a pallas_call's operands a and its
// out_shape are all known to be unsharded.
func unshardedKernel(k *kernelDecl, a *args) bool {
	if k.Entry != "pallas_call" || k.Op || a == nil || a.opaque || len(a.kw) > 0 || !unshardedStructs(k.Out) {
		return false
	}
	for _, v := range a.pos {
		if !unshardedArray(v) {
			return false
		}
	}
	return true
}
