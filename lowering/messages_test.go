package lowering

import (
	"strings"
	"testing"
)

func TestUnboundAxisMessageHistory(t *testing.T) {
	tests := []struct{ v, want string }{
		{"0.4.30", "unbound axis name: x. The following axis names (e.g. defined by pmap) are available to collective operations: []"},
		{"0.4.35", "unbound axis name: x. The following axis names (e.g. defined by pmap) are available to collective operations: []"},
		{"0.4.36", "unbound axis name: x"},
		{"0.5", "unbound axis name: x"},
		{"0.6.2", "unbound axis name: x"},
		{"0.7.0rc1", "unbound axis name: x"},
		{"0.7", "Found an unbound axis name: x. To fix this, please call axis_index under `jax.shard_map`."},
		{"0.11", "Found an unbound axis name: x. To fix this, please call axis_index under `jax.shard_map`."},
	}
	for _, tt := range tests {
		if got := UnboundAxisMessage(MustParse(tt.v), "x"); got != tt.want {
			t.Errorf("UnboundAxisMessage(%s) = %q, want %q", tt.v, got, tt.want)
		}
	}
	if w := unboundAxisWhere(MustParse("0.4.30")); w != "jax/_src/core.py" {
		t.Errorf("0.4.30 raises in core.py, got %s", w)
	}
	if w := unboundAxisWhere(Latest); w != "jax/_src/lax/parallel.py" {
		t.Errorf("0.11 raises in parallel.py, got %s", w)
	}
}

func TestPartitionMessageHistory(t *testing.T) {
	const now = "Mosaic kernels cannot be automatically partitioned. Please wrap the call in a shard_map."
	tests := map[string]string{
		"0.4.20": strings.TrimSuffix(now, ".") + " or xmap.",
		"0.4.30": strings.TrimSuffix(now, ".") + " or xmap.",
		"0.4.31": now,
		"0.8.2":  now,
		"0.11":   now,
	}
	for vs, want := range tests {
		if got := PartitionMessage(MustParse(vs)); got != want {
			t.Errorf("PartitionMessage(%s) = %q, want %q", vs, got, want)
		}
	}
}

func TestMeshIDMessageHistory(t *testing.T) {
	tests := []struct {
		v, err, msg, where string
	}{
		{"0.4.30", "AttributeError", "'NoneType' object has no attribute 'mesh_strides'", "jax/_src/pallas/mosaic/lowering.py"},
		{"0.6.2", "AttributeError", "'NoneType' object has no attribute 'mesh_strides'", "jax/_src/pallas/mosaic/lowering.py"},
		{"0.7.0", "AssertionError", "", "jax/_src/pallas/mosaic/lowering.py"},
		{"0.7.1", "AssertionError", "", "jax/_src/pallas/primitives.py"},
		{"0.8.0", "AssertionError", "", "jax/_src/pallas/primitives.py"},
		{"0.8.1", "AssertionError", "", "jax/_src/pallas/primitives.py"},
		{"0.8.2", "ValueError", "Number of device ids must match the number of mesh axes, but got 3 ids for a 0D mesh.", "jax/_src/pallas/primitives.py"},
	}
	for _, tt := range tests {
		o := meshIDOutcome(MustParse(tt.v), 3)
		if !o.Fails || o.Layer != LayerPallasLowering || o.Error != tt.err || o.Message != tt.msg || o.Where != tt.where {
			t.Errorf("meshIDOutcome(%s) = %+v", tt.v, o)
		}
	}
	if m := meshIDOutcome(Latest, 0).Message; !strings.Contains(m, "got {n} ids") {
		t.Errorf("unknown count should stay a placeholder: %q", m)
	}
}

func TestManualAxesMessage(t *testing.T) {
	if got := ManualAxesMessage("pallas_call", "(Explicit, Explicit)"); got != "pallas_call requires all mesh axes to be Manual, got (Explicit, Explicit)" {
		t.Errorf("got %q", got)
	}
	if got := ManualAxesMessage("mpmd_map", ""); got != "mpmd_map requires all mesh axes to be Manual, got {axis_types}" {
		t.Errorf("got %q", got)
	}
}

func TestRemoteSignalWhere(t *testing.T) {
	if w := remoteSignalWhere(MustParse("0.5.3")); w != "jax/_src/pallas/mosaic/primitives.py" {
		t.Errorf("0.5.3: %s", w)
	}
	if w := remoteSignalWhere(MustParse("0.6.0")); w != "jax/_src/pallas/primitives.py" {
		t.Errorf("0.6.0: %s", w)
	}
}
