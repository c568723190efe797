package lowering

import "testing"

// statusRow gives an API's expected status at a list of versions.
type statusRow struct {
	name string
	at   map[string]Status
}

const (
	ok  = StatusOK
	dep = StatusDeprecated
	rem = StatusRemoved
	nyt = StatusNotYet
)

var statusRows = []statusRow{
	{pltpu + "semaphore_signal", map[string]Status{"0.4.30": ok, "0.9.2": ok, "0.10.0rc1": ok, "0.10.0": dep, "0.10.2": dep, "0.11.0rc1": dep, "0.11": rem, "0.12": rem}},
	{pltpu + "semaphore_wait", map[string]Status{"0.9.2": ok, "0.10.1": dep, "0.11": rem}},
	{pltpu + "semaphore_read", map[string]Status{"0.4.26": nyt, "0.4.27": ok, "0.10.0": dep, "0.11": rem}},
	{pltpu + "DeviceIdType", map[string]Status{"0.4.30": ok, "0.10.0": dep, "0.11": rem}},
	{pl + "semaphore_signal", map[string]Status{"0.5.3": nyt, "0.6.0": ok, "0.11": ok}},
	{pltpu + "TPUCompilerParams", map[string]Status{"0.4.31": nyt, "0.4.32": ok, "0.6.1": ok, "0.6.2": dep, "0.7.1": dep, "0.7.2": rem, "0.8": rem}},
	{pltpu + "CompilerParams", map[string]Status{"0.6.1": nyt, "0.6.2": ok, "0.11": ok}},
	{pltpu + "TPUMemorySpace", map[string]Status{"0.4.30": ok, "0.6.2": dep, "0.7.2": rem}},
	{pltpu + "ANY", map[string]Status{"0.8.1": ok, "0.8.2": dep, "0.9.2": dep, "0.10.0": rem}},
	{pltpu + "MemorySpace.ANY", map[string]Status{"0.8.1": ok, "0.8.2": dep, "0.10.0": rem}},
	{pltpu + "delay", map[string]Status{"0.8.0": ok, "0.8.1": dep, "0.10.0": rem}},
	{pltpu + "KernelType", map[string]Status{"0.6.1": ok, "0.9.1": dep, "0.10.1": dep, "0.10.2": rem}},
	{pltpu + "CoreType", map[string]Status{"0.9.0": nyt, "0.9.1": ok}},
	{pltpu + "create_tensorcore_mesh", map[string]Status{"0.10.2": ok, "0.11": dep}},
	{"jax.experimental.shard_map.shard_map", map[string]Status{"0.4.30": ok, "0.7.2": ok, "0.8.0": dep, "0.11": dep}},
	{"jax.shard_map", map[string]Status{"0.6.0": nyt, "0.6.1": ok, "0.11": ok}},
	{"jax.smap", map[string]Status{"0.6.2": nyt, "0.7.0": ok}},
	{"jax.experimental.pjit.pjit", map[string]Status{"0.7.2": ok, "0.8.0": dep}},
	{"jax.sharding.use_mesh", map[string]Status{"0.5.0": ok, "0.7.0": ok, "0.7.1": rem}},
	{"jax.sharding.PositionalSharding", map[string]Status{"0.5.3": ok, "0.6.0": dep, "0.7.0": rem}},
	{plgpu + "GPUCompilerParams", map[string]Status{"0.6.0": ok, "0.6.1": rem}},
	{pltriton + "TritonCompilerParams", map[string]Status{"0.6.1": ok, "0.6.2": dep, "0.7.2": rem}},
	{"jax.experimental.maps.xmap", map[string]Status{"0.4.25": ok, "0.4.26": dep, "0.4.30": dep, "0.4.31": rem}},
	{"jax.ad_checkpoint.checkpoint", map[string]Status{"0.8.1": ok, "0.8.2": dep, "0.10.0": rem}},
	{"jax.jit", map[string]Status{"0.4.30": ok, "0.11": ok}},
}

func TestStatusAt(t *testing.T) {
	for _, row := range statusRows {
		a, found := Lookup(row.name)
		if !found {
			t.Errorf("Lookup(%q) not found", row.name)
			continue
		}
		for vs, want := range row.at {
			if got := a.StatusAt(MustParse(vs)); got != want {
				t.Errorf("%s at %s: %v, want %v", row.name, vs, got, want)
			}
		}
	}
}

// TestReplacementsExistWhenFlagged: when the analysis suggests ReplacedBy
// for a flagged name, the replacement must exist at that version, or the
// fix would trade one AttributeError for another.
func TestReplacementsExistWhenFlagged(t *testing.T) {
	for _, a := range APIs() {
		r, found := Lookup(a.ReplacedBy)
		if !found {
			continue
		}
		for _, b := range []Version{a.Deprecated, a.Removed} {
			if !b.IsZero() && r.StatusAt(b) != StatusOK {
				t.Errorf("%s flagged at %v but %s is %v there", a.Name, b, r.Name, r.StatusAt(b))
			}
		}
	}
}

func TestStatusStrings(t *testing.T) {
	want := map[Status]string{ok: "ok", nyt: "not-yet", dep: "deprecated", rem: "removed"}
	for s, w := range want {
		if s.String() != w {
			t.Errorf("%d.String() = %q, want %q", s, s.String(), w)
		}
	}
	if RoleInterpretParams.String() != "interpret-params" || Role(-1).String() != "unknown" || Role(999).String() != "unknown" {
		t.Error("Role.String is wrong")
	}
	if BackendTPU.String() != "tpu" || BackendGPU.String() != "gpu" || BackendUnknown.String() != "unknown" {
		t.Error("Backend.String is wrong")
	}
}
