package lowering

import (
	"fmt"
	"sort"
	"strings"
)

// API is one public JAX or Pallas name and what it means to the analysis.
type API struct {
	Name       string  // canonical fully qualified Python name
	Role       Role    // what the analysis does with it
	Backend    Backend // evidence the API gives about the kernel backend
	Since      Version // zero: since forever (as far as this tool cares)
	Deprecated Version // zero: not deprecated
	Removed    Version // zero: not removed
	ReplacedBy string  // canonical qualified name of the new spelling, "" if none
	Note       string  // one line shown in messages
}

// StatusAt reports whether the API is usable, deprecated or gone at v.
func (a API) StatusAt(v Version) Status {
	return statusAt(v, a.Since, a.Deprecated, a.Removed)
}

// Module prefixes, spelled once so the tables read like the user's imports.
const (
	pl       = "jax.experimental.pallas."
	pltpu    = "jax.experimental.pallas.tpu."
	plgpu    = "jax.experimental.pallas.mosaic_gpu."
	pltriton = "jax.experimental.pallas.triton."
	plsc     = "jax.experimental.pallas.tpu_sc."
)

// TestUtilCreateMesh is JAX's test helper create_mesh(mesh_shape,
// axis_names, iota_order=False, axis_types=None).
const TestUtilCreateMesh = "jax._src.test_util.create_mesh"

// aliases maps other spellings of the same object (re-exports, the private
// modules that the public names come from) to the canonical name. Only true
// identities belong here: a spelling with its own deprecation history is a
// separate table entry.
var aliases = map[string]string{
	"jax._src.shard_map.shard_map":                             "jax.shard_map",
	"jax._src.shard_map.smap":                                  "jax.smap",
	"jax._src.api.jit":                                         "jax.jit",
	"jax._src.api.pmap":                                        "jax.pmap",
	"jax._src.api.vmap":                                        "jax.vmap",
	"jax._src.api.make_jaxpr":                                  "jax.make_jaxpr",
	"jax._src.api.eval_shape":                                  "jax.eval_shape",
	"jax._src.pmap.pmap":                                       "jax.pmap",
	"jax._src.pjit.pjit":                                       "jax.experimental.pjit.pjit",
	"jax._src.lax.parallel.axis_index":                         "jax.lax.axis_index",
	"jax._src.lax.parallel.axis_size":                          "jax.lax.axis_size",
	"jax.NamedSharding":                                        "jax.sharding.NamedSharding",
	"jax._src.sharding_impls.NamedSharding":                    "jax.sharding.NamedSharding",
	"jax._src.sharding_impls.make_mesh":                        "jax.make_mesh",
	"jax._src.sharding_impls.set_mesh":                         "jax.set_mesh",
	"jax._src.pallas.pallas_call.pallas_call":                  pl + "pallas_call",
	"jax._src.pallas.helpers.kernel":                           pl + "kernel",
	"jax._src.pallas.core.core_map":                            pl + "core_map",
	"jax._src.pallas.primitives.semaphore_signal":              pl + "semaphore_signal",
	"jax._src.pallas.primitives.semaphore_wait":                pl + "semaphore_wait",
	"jax._src.pallas.primitives.semaphore_read":                pl + "semaphore_read",
	"jax._src.pallas.primitives.DeviceIdType":                  pl + "DeviceIdType",
	"jax._src.pallas.mosaic.primitives.make_async_copy":        pltpu + "make_async_copy",
	"jax._src.pallas.mosaic.primitives.async_copy":             pltpu + "async_copy",
	"jax._src.pallas.mosaic.primitives.make_async_remote_copy": pltpu + "make_async_remote_copy",
	"jax._src.pallas.mosaic.primitives.async_remote_copy":      pltpu + "async_remote_copy",
	"jax._src.pallas.mosaic.primitives.get_barrier_semaphore":  pltpu + "get_barrier_semaphore",
	"jax._src.pallas.mosaic.pipeline.emit_pipeline":            pltpu + "emit_pipeline",
	"jax._src.pallas.mosaic.core.CompilerParams":               pltpu + "CompilerParams",
	"jax._src.pallas.mosaic.core.TensorCoreMesh":               pltpu + "TensorCoreMesh",
	"jax._src.pallas.mosaic.sc_core.ScalarSubcoreMesh":         plsc + "ScalarSubcoreMesh",
	"jax._src.pallas.mosaic.sc_core.VectorSubcoreMesh":         plsc + "VectorSubcoreMesh",
	"jax._src.core.ShapeDtypeStruct":                           "jax.ShapeDtypeStruct",
	"jax._src.pallas.mosaic_gpu.core.kernel":                   plgpu + "kernel",
	"jax._src.pallas.mosaic_gpu.core.CompilerParams":           plgpu + "CompilerParams",
}

var index = buildIndex()

// buildIndex checks the tables once at start-up: a duplicate name or an
// alias to nothing is a table bug, and the package's tests would otherwise
// report it far from its cause.
func buildIndex() map[string]API {
	m := make(map[string]API)
	for _, table := range [][]API{pallasAPIs(), tpuAPIs(), gpuAPIs(), jaxAPIs(), testBaseAPIs(), kernelOpAPIs()} {
		for _, a := range table {
			if _, dup := m[a.Name]; dup {
				panic(fmt.Sprintf("lowering: duplicate API %q", a.Name))
			}
			m[a.Name] = a
		}
	}
	for alias, canon := range aliases {
		if _, ok := m[canon]; !ok {
			panic(fmt.Sprintf("lowering: alias %q names unknown API %q", alias, canon))
		}
	}
	return m
}

// Lookup finds an API by fully qualified name, accepting every public (and
// the common private) spelling. The analysis resolves user import aliases
// to qualified names before calling it. The returned API always carries
// the canonical Name.
func Lookup(qualified string) (API, bool) {
	if canon, ok := aliases[qualified]; ok {
		qualified = canon
	}
	a, ok := index[qualified]
	return a, ok
}

// LookupPrefix finds the longest known API that qualified starts with, and
// returns the attribute path after it ("MESH" for
// "jax.experimental.pallas.DeviceIdType.MESH"). It lets the analysis map an
// enum member or method access back to its owner without listing members.
func LookupPrefix(qualified string) (API, string, bool) {
	for name, rest := qualified, ""; name != ""; {
		if a, ok := Lookup(name); ok {
			return a, rest, true
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			break
		}
		if rest == "" {
			rest = name[i+1:]
		} else {
			rest = name[i+1:] + "." + rest
		}
		name = name[:i]
	}
	return API{}, "", false
}

// APIs returns every entry (for docs and tests), sorted by Name.
func APIs() []API {
	out := make([]API, 0, len(index))
	for _, a := range index {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Aliases returns the extra spellings Lookup accepts, mapped to canonical
// names, for documentation and tests.
func Aliases() map[string]string {
	out := make(map[string]string, len(aliases))
	for k, v := range aliases {
		out[k] = v
	}
	return out
}
