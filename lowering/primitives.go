package lowering

import (
	"slices"
	"strings"
)

// Which primitives Pallas's Mosaic TPU lowering has a rule for, per JAX
// version (mosaicRules, generated from JAX's own registered rules by
// lowering/gen/gen.sh), and which primitive each jnp/lax API binds.

// mosaicRuleSet is one release's rule table.
type mosaicRuleSet struct {
	Version    string
	KernelType string // "" before kernel types; "KernelType.TC", "CoreType.TC", "tc"
	Primitives []string
}

// apiPrimitive maps jnp/lax APIs to the one primitive they always bind,
// whatever the dtype, for the primitives some recorded version cannot
// lower. APIs whose primitive depends on arguments (jnp.round of ints
// binds none) are left out.
var apiPrimitive = map[string]string{
	"jax.numpy.cumsum": "cumsum", "jax.lax.cumsum": "cumsum",
	"jax.numpy.cumprod": "cumprod", "jax.lax.cumprod": "cumprod",
	"jax.lax.cummax": "cummax", "jax.lax.cummin": "cummin", "jax.lax.cumlogsumexp": "cumlogsumexp",
	"jax.numpy.sort": "sort", "jax.numpy.argsort": "sort", "jax.lax.sort": "sort", "jax.lax.sort_key_val": "sort",
	"jax.lax.top_k": "top_k",
	"jax.numpy.cos": "cos", "jax.lax.cos": "cos", "jax.numpy.tan": "tan", "jax.lax.tan": "tan",
	"jax.lax.erf_inv": "erf_inv", "jax.scipy.special.erfinv": "erf_inv",
	"jax.lax.erf": "erf", "jax.scipy.special.erf": "erf", "jax.lax.erfc": "erfc", "jax.scipy.special.erfc": "erfc",
	"jax.numpy.arctan2": "atan2", "jax.lax.atan2": "atan2",
	"jax.lax.sign": "sign", "jax.numpy.sign": "sign", "jax.numpy.floor_divide(int)": "sign",
	"jax.lax.population_count": "population_count", "jax.lax.clz": "clz",
	"jax.numpy.cbrt": "cbrt", "jax.lax.cbrt": "cbrt", "jax.numpy.expm1": "expm1", "jax.lax.expm1": "expm1",
	"jax.numpy.arcsin": "asin", "jax.lax.asin": "asin", "jax.numpy.arccos": "acos", "jax.lax.acos": "acos",
	"jax.numpy.arctan": "atan", "jax.lax.atan": "atan",
	"jax.numpy.sinh": "sinh", "jax.lax.sinh": "sinh", "jax.numpy.cosh": "cosh", "jax.lax.cosh": "cosh",
	"jax.numpy.arcsinh": "asinh", "jax.lax.asinh": "asinh", "jax.numpy.arccosh": "acosh", "jax.lax.acosh": "acosh",
	"jax.numpy.arctanh": "atanh", "jax.lax.atanh": "atanh",
	"jax.lax.lgamma": "lgamma", "jax.scipy.special.gammaln": "lgamma", "jax.lax.digamma": "digamma",
	"jax.scipy.special.digamma": "digamma",
	"jax.lax.scatter":           "scatter", "jax.lax.scatter_add": "scatter-add", "jax.lax.scatter_mul": "scatter-mul",
	"jax.lax.scatter_min": "scatter-min", "jax.lax.scatter_max": "scatter-max",
}

// APIPrimitive returns the primitive api binds, when it is one the table
// follows.
func APIPrimitive(api string) (string, bool) {
	p, ok := apiPrimitive[api]
	return p, ok
}

// mosaicRulesFor returns the rule table for v: of the releases recorded
// in v's minor line, the newest not after v, else the line's oldest (a
// version written "0.11" means the line); false when the line is not
// recorded.
func mosaicRulesFor(v Version) (*mosaicRuleSet, bool) {
	var best, oldest *mosaicRuleSet
	var bestV, oldestV Version
	for i := range mosaicRules {
		r := &mosaicRules[i]
		rv := MustParse(r.Version)
		if rv.Major != v.Major || rv.Minor != v.Minor {
			continue
		}
		if oldest == nil || rv.Less(oldestV) {
			oldest, oldestV = r, rv
		}
		if !v.Less(rv) && (best == nil || bestV.Less(rv)) {
			best, bestV = r, rv
		}
	}
	if best == nil {
		best = oldest
	}
	return best, best != nil
}

// MosaicLowers reports whether v's Mosaic TPU lowering has a rule for
// prim; known is false when v's line is not recorded.
func MosaicLowers(v Version, prim string) (lowers, known bool) {
	r, ok := mosaicRulesFor(v)
	if !ok {
		return false, false
	}
	_, found := slices.BinarySearch(r.Primitives, prim)
	return found, true
}

// UnimplementedPrimitiveOutcome is the NotImplementedError of a primitive
// without a Mosaic rule, worded as v words it.
func UnimplementedPrimitiveOutcome(v Version, prim string) Outcome {
	r, ok := mosaicRulesFor(v)
	if !ok {
		return Outcome{}
	}
	var b strings.Builder
	b.WriteString("Unimplemented primitive in Pallas TPU lowering")
	if r.KernelType != "" {
		b.WriteString(" for " + r.KernelType)
	}
	b.WriteString(": " + prim + ". Please file an issue ")
	switch {
	case v.Less(V(0, 4, 34)):
		b.WriteString("on https://github.com/google/jax/issues.")
	case v.Less(V(0, 10, 1)):
		b.WriteString("on https://github.com/jax-ml/jax/issues.")
	default:
		b.WriteString("at https://github.com/jax-ml/jax/issues/new/choose.")
	}
	return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "NotImplementedError", Message: b.String(), Where: whereMosaicLower}
}

// BoolCompareSince is the first release whose Mosaic lowering compares
// booleans (it casts them to int32 first; jax/_src/pallas/mosaic/lowering.py
// _cmp_lowering_rule, from jax-v0.4.32). Before it a comparison whose
// operands are not both integers or both floats raises, and jnp.remainder
// (Python's `%` on a traced value) always binds one: it compares the
// signs of the remainder and the divisor, two booleans.
var BoolCompareSince = V(0, 4, 32)

// remainderAPIs bind jnp.remainder's lowering, which compares booleans.
var remainderAPIs = map[string]bool{"jax.numpy.remainder": true, "jax.numpy.mod": true}

// RemainderOutcome is what lowering api (jnp.remainder, jnp.mod, or `%`
// on a traced value, recorded as jax.numpy.remainder) in a TPU kernel
// does at v: it fails before BoolCompareSince.
func RemainderOutcome(v Version, api string) Outcome {
	if !v.Less(BoolCompareSince) || !remainderAPIs[api] { // the version first: rules ask for every call in every kernel
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "NotImplementedError",
		Message: "Mixed dtype operands in cmp", Where: whereMosaicLower}
}
