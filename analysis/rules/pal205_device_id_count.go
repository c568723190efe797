package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL205 reports MESH device ids that do not fit the shard_map's mesh.
var PAL205 = &analysis.Analyzer{
	Code: "PAL205", Name: "device-id-count", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Device id does not match the mesh of the enclosing shard_map",
		What: "A remote DMA or semaphore signal in a pallas_call kernel gives a MESH-typed device_id (the default " +
			"device_id_type) as a tuple or a scalar whose number of entries differs from the number of axes of the " +
			"mesh of the fully manual shard_map the kernel is called in; or a dict device_id with keys that are not " +
			"axes of that mesh; or, in a pl.kernel or core_map body over a core mesh whose axis names are literal, a dict " +
			"device_id with a key that is an axis of neither the shard_map's mesh nor the core mesh. LOGICAL ids, dict ids naming mesh axes (JAX completes the missing ones), and tuples " +
			"with one entry per mesh axis are fine. Only meshes whose axis names are literal are checked. It also " +
			"reports any MESH id in a kernel in which Pallas sees no communication (no lax.axis_index on a mesh " +
			"axis; before 0.8.2 a dict id, before 0.7.0 a semaphore signal's device_id do not count): Pallas then " +
			"lowers the kernel without the mesh, even inside the shard_map.",
		Why: "Pallas lowering converts a MESH id to a logical device index with one coordinate per mesh axis and " +
			"fails: \"ValueError: Number of device ids must match the number of mesh axes, but got 1 ids for a 2D " +
			"mesh.\" (JAX 0.8.1 and later; 0.7 fails in safe_zip), or \"Unrecognized axes in device_id: ...\". " +
			"Without the mesh the id cannot be converted at all: \"'NoneType' object has no attribute " +
			"'mesh_strides'\" before 0.7.0, a bare AssertionError in 0.7.0-0.8.1, \"... but got 1 ids for a 0D " +
			"mesh.\" since 0.8.2. Computing the id from lax.axis_index makes Pallas build the mesh; a LOGICAL id " +
			"needs none.",
		Example: "pltpu.make_async_remote_copy(x_ref, o_ref, send, recv, device_id=(j,))  # mesh (\"x\", \"y\")",
		Fixed:   "pltpu.make_async_remote_copy(x_ref, o_ref, send, recv, device_id={\"x\": j})",
		Since:   "0.2.0",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref, send, recv):
    j = (jax.lax.axis_index("x") + 1) % 4
    copy = ` + analysis.SnippetLine + `
    copy.start()
    copy.wait()


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)


mesh = jax.make_mesh((4, 2), ("x", "y"))
jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P(("x", "y")), out_specs=P(("x", "y")), check_vma=False))(jnp.ones((64, 128)))
`,
	},
	Run: runPAL205,
}

// idMismatch is one device id that does not fit the mesh. noMesh: the
// kernel gives Pallas no reason to build the mesh, so any MESH id fails.
type idMismatch struct {
	op     analysis.OpFact
	reach  analysis.Reach
	o      lowering.Outcome
	what   string
	noMesh bool
}

func runPAL205(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		t, tpu := onTPU(p, kc)
		if !tpu {
			continue
		}
		m, ok := deviceIDMismatch(p.Version, kc)
		if !ok {
			continue
		}
		axes := strings.Join(quoteAll(m.reach.MeshAxes), ", ")
		rel := []analysis.Related{}
		if m.reach.ShardMap != nil {
			msg := "the shard_map over mesh axes (" + axes + ")"
			if len(m.reach.MeshAxes) == 0 {
				msg = "the shard_map"
			}
			rel = append(rel, analysis.Related{Location: *m.reach.ShardMap, Message: msg})
		}
		loc := m.op.Location
		if m.op.ID != nil {
			loc = *m.op.ID
		}
		msg := fmt.Sprintf("device_id of this %s %s, in kernel `%s` under a shard_map over axes (%s); %s: %s",
			m.op.Kind, m.what, kc.Kernel, axes, fails(p, t), quoteError(m.o))
		if m.noMesh {
			msg = fmt.Sprintf("device_id of this %s is MESH-typed, but Pallas sees no communication in kernel `%s` "+
				"(no jax.lax.axis_index on a mesh axis), so it lowers the kernel without the device mesh even inside "+
				"the shard_map and cannot convert the id; %s: %s. Compute the id from jax.lax.axis_index (Pallas then "+
				"builds the mesh), or, if it is a logical device index, pass device_id_type=pl.DeviceIdType.LOGICAL",
				m.op.Kind, kc.Kernel, fails(p, t), quoteError(m.o))
		}
		p.Report(targeted(p, t, analysis.Diagnostic{
			Location: loc,
			Message:  msg,
			Related:  append(rel, pathRelated(m.reach)...),
			Detail:   detail(p, m.o), JAXError: jaxError(m.o),
		}))
	}
}

// deviceIDMismatch finds the first MESH device id of a pallas_call kernel
// that does not fit the mesh of a shard_map it is called in.
func deviceIDMismatch(v lowering.Version, kc *analysis.KernelCall) (idMismatch, bool) {
	for _, r := range kc.Reaches {
		if m, ok := deviceIDMismatchAt(v, kc, r); ok {
			return m, true
		}
	}
	return idMismatch{}, false
}

// deviceIDMismatchAt is deviceIDMismatch for one reach of the call.
// Location is the device_id value when the op's call spells it.
func deviceIDMismatchAt(v lowering.Version, kc *analysis.KernelCall, r analysis.Reach) (idMismatch, bool) {
	if kc.Entry != "pallas_call" && kc.Backend != lowering.BackendGPU {
		return coreDictMismatch(v, kc, r)
	}
	if kc.Backend == lowering.BackendGPU || kc.Entry != "pallas_call" || interpreted(kc) {
		return idMismatch{}, false
	}
	// In a partial shard_map the ids are converted (and fail) before
	// the custom call's partitioning check that PAL102 predicts.
	if r.Kind != lowering.CtxShardMapFull && r.Kind != lowering.CtxShardMapPartial || r.TraceOnly {
		return idMismatch{}, false
	}
	if !lowering.MeshInfoInShardMap(v, kc.Effects) {
		return noMeshMismatch(v, kc, r)
	}
	if len(r.MeshAxes) == 0 {
		return idMismatch{}, false
	}
	for _, op := range kc.Ops {
		if op.Kind == "axis_index" || op.Logical || op.UnknownAxis {
			continue
		}
		switch op.IDForm {
		case "tuple", "int":
			n := max(op.NTuple, 1)
			if op.IDForm == "int" {
				n = 1
			}
			if n == len(r.MeshAxes) {
				continue
			}
			if o, ok := lowering.DeviceIDCount(v, n, len(r.MeshAxes)); ok {
				return idMismatch{op: op, reach: r, o: o,
					what: fmt.Sprintf("has %d %s for a %d-axis mesh", n, plural(n, "entry", "entries"), len(r.MeshAxes))}, true
			}
		case "dict":
			if v.Less(lowering.DictDeviceIDsSince) {
				// Flattened: one entry per key, like a tuple.
				if n := op.NKeys; n > 0 && n != len(r.MeshAxes) {
					if o, ok := lowering.DeviceIDCount(v, n, len(r.MeshAxes)); ok {
						return idMismatch{op: op, reach: r, o: o,
							what: fmt.Sprintf("is a dict, which JAX %s flattens to %d %s for a %d-axis mesh", v, n, plural(n, "entry", "entries"), len(r.MeshAxes))}, true
					}
				}
				continue
			}
			if !op.LiteralDict {
				continue // keys from variables: their value may differ per caller
			}
			var extra []string
			for _, a := range op.Axes {
				if !slices.Contains(r.MeshAxes, a) {
					extra = append(extra, a)
				}
			}
			if len(extra) == 0 {
				continue
			}
			if o, ok := lowering.UnrecognizedDeviceAxes(v); ok {
				return idMismatch{op: op, reach: r, o: o,
					what: "names " + strings.Join(quoteAll(extra), ", ") + ", not an axis of the mesh"}, true
			}
		}
	}
	return idMismatch{}, false
}

// noMeshMismatch: a kernel that sets no Pallas-level communication flag is
// lowered without the mesh, so its first MESH id fails whatever its length,
// when that is the first error JAX raises in the reach's context.
func noMeshMismatch(v lowering.Version, kc *analysis.KernelCall, r analysis.Reach) (idMismatch, bool) {
	o, ok := lowering.NoMeshDeviceID(v, kc.Effects)
	if !ok || lowering.Predict(v, reachContext(kc, r), kc.Effects) != o {
		return idMismatch{}, false
	}
	for _, op := range kc.Ops {
		if op.Kind == "axis_index" || op.Logical {
			continue
		}
		switch op.IDForm {
		case "tuple", "int", "dict":
			return idMismatch{op: op, reach: r, o: o, noMesh: true}, true
		}
	}
	return idMismatch{}, false
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "\"" + s + "\""
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// coreDictMismatch: a pl.kernel or core_map body under a shard_map names,
// in a literal dict device id, a key that is neither an axis of the
// shard_map's mesh nor of the kernel's core mesh (both known).
func coreDictMismatch(v lowering.Version, kc *analysis.KernelCall, r analysis.Reach) (idMismatch, bool) {
	if kc.CoreAxes == nil || len(r.MeshAxes) == 0 || r.TraceOnly || r.Library || r.BoundAny ||
		r.Kind != lowering.CtxShardMapFull && r.Kind != lowering.CtxShardMapPartial {
		return idMismatch{}, false
	}
	for _, op := range kc.Ops {
		if op.IDForm != "dict" || !op.LiteralDict || op.Logical || op.UnknownAxis {
			continue
		}
		var extra []string
		for _, a := range op.Axes {
			if !slices.Contains(r.MeshAxes, a) && !slices.Contains(kc.CoreAxes, a) {
				extra = append(extra, a)
			}
		}
		if len(extra) == 0 {
			continue
		}
		if o, ok := lowering.UnrecognizedDeviceAxes(v); ok {
			return idMismatch{op: op, reach: r, o: o,
				what: "names " + strings.Join(quoteAll(extra), ", ") + ", an axis of neither the mesh nor the kernel's core mesh (" +
					strings.Join(quoteAll(kc.CoreAxes), ", ") + ")"}, true
		}
	}
	return idMismatch{}, false
}
