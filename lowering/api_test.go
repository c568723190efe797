package lowering

import (
	"sort"
	"testing"
)

func TestLookupSpellings(t *testing.T) {
	tests := []struct {
		name    string
		canon   string
		role    Role
		backend Backend
	}{
		{"jax.experimental.pallas.tpu.semaphore_signal", "", RoleRemoteComm, BackendTPU},
		{"jax.experimental.pallas.semaphore_signal", "", RoleRemoteComm, BackendUnknown},
		{"jax._src.pallas.primitives.semaphore_signal", pl + "semaphore_signal", RoleRemoteComm, BackendUnknown},
		{"jax.experimental.pallas.tpu.make_async_remote_copy", "", RoleRemoteComm, BackendTPU},
		{"jax.experimental.pallas.tpu.async_remote_copy", "", RoleRemoteComm, BackendTPU},
		{"jax.experimental.pallas.tpu.make_async_copy", "", RoleLocalOp, BackendTPU},
		{"jax.experimental.pallas.tpu.get_barrier_semaphore", "", RoleLocalOp, BackendTPU},
		{"jax.lax.axis_index", "", RoleAxisIndex, BackendUnknown},
		{"jax.lax.axis_size", "", RoleAxisSize, BackendUnknown},
		{"jax.shard_map", "", RoleShardMap, BackendUnknown},
		{"jax._src.shard_map.shard_map", "jax.shard_map", RoleShardMap, BackendUnknown},
		{"jax.experimental.shard_map.shard_map", "", RoleShardMap, BackendUnknown},
		{"jax.smap", "", RoleSmap, BackendUnknown},
		{"jax.pmap", "", RolePmap, BackendUnknown},
		{"jax.jit", "", RoleJit, BackendUnknown},
		{"jax.experimental.pjit.pjit", "", RoleJit, BackendUnknown},
		{"jax.experimental.pallas.pallas_call", "", RolePallasCall, BackendUnknown},
		{"jax.experimental.pallas.kernel", "", RoleKernelEntry, BackendUnknown},
		{"jax.experimental.pallas.mosaic_gpu.kernel", "", RoleKernelEntry, BackendGPU},
		{"jax.experimental.pallas.core_map", "", RoleCoreMap, BackendUnknown},
		{"jax.checkpoint", "", RoleTransparent, BackendUnknown},
		{"jax.remat", "", RoleTransparent, BackendUnknown},
		{"jax.named_scope", "", RoleTransparent, BackendUnknown},
		{"jax.lax.fori_loop", "", RoleTransparent, BackendUnknown},
		{"jax.experimental.pallas.when", "", RoleTransparent, BackendUnknown},
		{"jax.experimental.pallas.tpu.emit_pipeline", "", RoleTransparent, BackendTPU},
		{"jax.experimental.pallas.ops.tpu.all_gather.all_gather", "", RoleSelfWrapping, BackendTPU},
		{"jax.sharding.Mesh", "", RoleMesh, BackendUnknown},
		{"jax.make_mesh", "", RoleMesh, BackendUnknown},
		{"jax.set_mesh", "", RoleSetMesh, BackendUnknown},
		{"jax.sharding.use_mesh", "", RoleSetMesh, BackendUnknown},
		{"jax.NamedSharding", "jax.sharding.NamedSharding", RoleShardingEvidence, BackendUnknown},
		{"jax.lax.with_sharding_constraint", "", RoleShardingEvidence, BackendUnknown},
		{"jax.device_put", "", RoleShardingEvidence, BackendUnknown},
		{"jax.experimental.custom_partitioning.custom_partitioning", "", RoleCustomPartitioning, BackendUnknown},
		{"jax.experimental.pallas.tpu.CompilerParams", "", RoleTPUCompilerParams, BackendTPU},
		{"jax.experimental.pallas.tpu.TPUCompilerParams", "", RoleTPUCompilerParams, BackendTPU},
		{"jax.experimental.pallas.mosaic_gpu.CompilerParams", "", RoleGPUCompilerParams, BackendGPU},
		{"jax.experimental.pallas.triton.CompilerParams", "", RoleGPUCompilerParams, BackendGPU},
		{"jax.experimental.pallas.tpu.create_tensorcore_mesh", "", RoleCoreMesh, BackendTPU},
		{"jax.experimental.pallas.tpu_sc.VectorSubcoreMesh", "", RoleCoreMesh, BackendTPU},
		{"jax.experimental.pallas.DeviceIdType", "", RoleDeviceIdType, BackendUnknown},
		{"jax.experimental.pallas.tpu.DeviceIdType", "", RoleDeviceIdType, BackendTPU},
		{"jax.experimental.pallas.tpu.InterpretParams", "", RoleInterpretParams, BackendTPU},
	}
	for _, tt := range tests {
		a, ok := Lookup(tt.name)
		if !ok {
			t.Errorf("Lookup(%q) not found", tt.name)
			continue
		}
		canon := tt.canon
		if canon == "" {
			canon = tt.name
		}
		if a.Name != canon || a.Role != tt.role || a.Backend != tt.backend {
			t.Errorf("Lookup(%q) = {%s %v %v}, want {%s %v %v}", tt.name, a.Name, a.Role, a.Backend, canon, tt.role, tt.backend)
		}
	}
}

func TestLookupMisses(t *testing.T) {
	// functools.partial is resolved by the analysis itself, and a user
	// function that shares an API's last name is not that API.
	for _, name := range []string{"functools.partial", "make_async_remote_copy", "jax", "", "jax.experimental.pallas"} {
		if a, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %v, want a miss", name, a)
		}
	}
}

func TestLookupPrefix(t *testing.T) {
	a, rest, ok := LookupPrefix("jax.experimental.pallas.DeviceIdType.MESH")
	if !ok || a.Name != pl+"DeviceIdType" || rest != "MESH" {
		t.Errorf("got %v %q %v", a.Name, rest, ok)
	}
	a, rest, ok = LookupPrefix("jax.experimental.pallas.tpu.MemorySpace.ANY")
	if !ok || a.Name != pltpu+"MemorySpace.ANY" || rest != "" {
		t.Errorf("exact member entry should win: got %v %q", a.Name, rest)
	}
	a, rest, ok = LookupPrefix("jax.NamedSharding.a.b")
	if !ok || a.Name != "jax.sharding.NamedSharding" || rest != "a.b" {
		t.Errorf("got %v %q %v", a.Name, rest, ok)
	}
	if _, _, ok := LookupPrefix("numpy.array"); ok {
		t.Error("LookupPrefix(numpy.array) found something")
	}
}

func TestAPIsSortedAndConsistent(t *testing.T) {
	all := APIs()
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Name < all[j].Name }) {
		t.Fatal("APIs() is not sorted by Name")
	}
	for _, a := range all {
		checkBounds(t, a.Name, a.Since, a.Deprecated, a.Removed)
		if a.Role.String() == "unknown" && a.Role != RoleUnknown {
			t.Errorf("%s: role %d has no name", a.Name, a.Role)
		}
		if a.ReplacedBy != "" && a.ReplacedBy != "jax.numpy.tile" {
			if _, ok := Lookup(a.ReplacedBy); !ok {
				t.Errorf("%s: ReplacedBy %q is not in the table", a.Name, a.ReplacedBy)
			}
		}
		if (a.Deprecated != Version{} || a.Removed != Version{}) && a.Note == "" {
			t.Errorf("%s: deprecated or removed without a Note", a.Name)
		}
	}
	for alias, canon := range Aliases() {
		if a, ok := Lookup(alias); !ok || a.Name != canon {
			t.Errorf("alias %q -> %q does not resolve", alias, canon)
		}
	}
}

// checkBounds: a removal follows its deprecation, and both follow Since.
func checkBounds(t *testing.T, name string, since, dep, rem Version) {
	t.Helper()
	if !dep.IsZero() && !rem.IsZero() && !dep.Less(rem) {
		t.Errorf("%s: deprecated %v not before removed %v", name, dep, rem)
	}
	for _, b := range []Version{dep, rem} {
		if !b.IsZero() && !since.IsZero() && !since.Less(b) {
			t.Errorf("%s: since %v not before %v", name, since, b)
		}
	}
}
