package lowering

import (
	"strings"
	"testing"
)

func interp(e Effects, params bool) Effects {
	e.Interpret, e.InterpretParams = true, params
	return e
}

func meshKernel(e Effects) Effects { e.MeshKernel = true; return e }

// TestPredictModes covers interpret mode, pl.kernel / core_map kernels,
// the Local override and the message placeholders.
func TestPredictModes(t *testing.T) {
	remoteSignal := Outcome{Fails: true, Layer: LayerInterpret, Error: "NotImplementedError",
		Message: MsgRemoteSignal, Where: "jax/_src/pallas/primitives.py"}
	explicitMpmd := Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError",
		Message: "mpmd_map requires all mesh axes to be Manual, got {axis_types}", Where: "jax/_src/pallas/mpmd.py"}
	tests := []struct {
		name string
		v    string
		ctx  Context
		eff  Effects
		want Outcome
	}{
		{"interpret skips Mosaic: jit multi local", "0.11", jitN, interp(local, false), fine},
		{"interpret skips Mosaic: dict ids in shard_map", "0.11", smFull, interp(dictIDs, false), fine},
		{"interpret=True remote DMA dict id, no axis env", "0.11", eager, interp(dictIDs, false),
			Outcome{Fails: true, Layer: LayerInterpret, Error: "IndexError", Message: "list index out of range", Where: "jax/_src/pallas/mosaic/primitives.py"}},
		{"interpret=True remote DMA dict id before 0.7", "0.6.2", jitN, interp(dictIDs, false),
			Outcome{Fails: true, Layer: LayerInterpret, Error: "ValueError", Message: "device_id ({n}) and mesh (0) must have same length.", Where: "jax/_src/pallas/mosaic/primitives.py"}},
		{"interpret=True remote DMA dict id 0.12", "0.12.0", eager, interp(dictIDs, false),
			Outcome{Fails: true, Layer: LayerInterpret, Error: "NotImplementedError", Message: "Non-mesh axes not implemented in dma_start_p: {axes}", Where: "jax/_src/pallas/mosaic/primitives.py"}},
		{"interpret=True remote DMA tuple id", "0.9", eager, interp(meshTuple, false),
			Outcome{Fails: true, Layer: LayerInterpret, Error: "ValueError", Message: "device_id (2) and mesh (0) must have same length.", Where: "jax/_src/pallas/mosaic/primitives.py"}},
		{"interpret=True remote DMA before the discharge rule", "0.4.30", eager, interp(dictIDs, false), fine},
		{"interpret=True remote DMA LOGICAL id", "0.11", eager, interp(hidden, false),
			Outcome{Fails: true, Layer: LayerInterpret, Error: "IndexError", Message: "list index out of range", Where: "jax/_src/pallas/mosaic/primitives.py"}},
		{"interpret=True remote DMA LOGICAL id 0.12", "0.12.0", jitN, interp(hidden, false),
			Outcome{Fails: true, Layer: LayerInterpret, Error: "IndexError", Message: "tuple index out of range", Where: "jax/_src/pallas/mosaic/primitives.py"}},
		{"interpret=True remote DMA int id 0.12", "0.12.0", eager, interp(meshTuple, false),
			Outcome{Fails: true, Layer: LayerInterpret, Error: "ValueError", Message: "Number of device ids must match the number of mesh axes, but got 2 ids for a 0D mesh.", Where: "jax/_src/pallas/primitives.py"}},
		{"interpret=True remote DMA under pmap: axis env not empty", "0.7", pmap, interp(dictIDs, false), fine},
		{"InterpretParams simulates remote DMA", "0.11", eager, interp(dictIDs, true), fine},
		{"interpret skips Mosaic: pmap hidden", "0.7", pmap, interp(hidden, false), fine},
		{"interpret keeps layer 1: axis_index", "0.11", eager, interp(ringAxis, false), unboundX(Latest)},
		{"interpret keeps layer 1: explicit", "0.11", jitExpl, interp(local, true), explicitPallas},
		{"interpret=True remote signal", "0.11", smFull, interp(signalLogic, false), remoteSignal},
		{"InterpretParams simulates remote signal", "0.11", smFull, interp(signalLogic, true), fine},
		{"interpret=True before the signal rule", "0.4.30", smFull, interp(signalLogic, false), fine},
		// The oracle (gen/core_device_ids-*): mpmd_map's device-id lowering
		// rejects device axes outside shard_map; before 0.10 pallas_call's
		// communication check does.
		{"mesh kernel: device axes unrecognized", "0.11", eager, meshKernel(dictIDs),
			Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError", Message: MsgUnrecognizedAxes, Where: whereMosaicLower}},
		{"mesh kernel: comm check before 0.10", "0.9.2", eager, meshKernel(dictIDs),
			Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError", Message: MsgCommWithoutShardMap, Where: whereMosaicLower}},
		{"mesh kernel: MESH tuple still needs a mesh", "0.11", eager, meshKernel(meshTuple), meshIDOutcome(Latest, 2)},
		{"mesh kernel: jit multi partition", "0.11", jitN, meshKernel(local), partitionOf(Latest)},
		{"mesh kernel: explicit names mpmd_map", "0.11", jitExpl, meshKernel(local), explicitMpmd},
		{"mesh kernel: explicit check absent before 0.11", "0.10.2", jitExpl, meshKernel(local), partitionOf(Latest)},
		{"mesh kernel: shard_map full", "0.11", smFull, meshKernel(ringAxis), fine},
		{"mesh kernel: pmap hidden", "0.7", pmap, meshKernel(hidden), replica},
		{"Local overrides flags", "0.11", eager, Effects{Local: true, AxisIndexDeviceAxis: true, DictDeviceID: true}, fine},
		{"Local still partitions", "0.11", jitN, Effects{Local: true, RemoteDMA: true}, partitionOf(Latest)},
		{"pmap 0.8.0rc1 is still legacy", "0.8.0rc1", pmap, hidden, replica},
		{"comm check absent before 0.4.21", "0.4.20", eager, dictIDs, fine},
	}
	for _, tt := range tests {
		if got := Predict(MustParse(tt.v), tt.ctx, tt.eff); got != tt.want {
			t.Errorf("%s at %s:\n got %+v\nwant %+v", tt.name, tt.v, got, tt.want)
		}
	}
}

func TestPredictAxisPlaceholder(t *testing.T) {
	e := ringAxis
	e.AxisName = ""
	o := Predict(Latest, eager, e)
	if !strings.Contains(o.Message, "unbound axis name: {name}.") {
		t.Errorf("empty axis name should leave {name}: %q", o.Message)
	}
	e.AxisName = "data"
	if o := Predict(MustParse("0.5"), jitN, e); o.Message != "unbound axis name: data" {
		t.Errorf("got %q", o.Message)
	}
}

func TestContextHelpers(t *testing.T) {
	tests := []struct {
		ctx    Context
		v      string
		manual bool
	}{
		{smFull, "0.4.30", true},
		{smPart, "0.11", false},
		{pmap, "0.7.2", false},
		{pmap, "0.8.0", true},
		{jitN, "0.11", false},
		{Context{}, "0.11", false},
	}
	for _, tt := range tests {
		if got := tt.ctx.FullyManual(MustParse(tt.v)); got != tt.manual {
			t.Errorf("%v.FullyManual(%s) = %v", tt.ctx.Kind, tt.v, got)
		}
	}
	names := map[ContextKind]string{CtxUnknown: "unknown", CtxEagerSingle: "eager-single",
		CtxJitMulti: "jit-multi", CtxShardMapFull: "shard-map-full",
		CtxShardMapPartial: "shard-map-partial", CtxPmap: "pmap", ContextKind(42): "unknown"}
	for k, w := range names {
		if k.String() != w {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), w)
		}
	}
}

func TestCommunicates(t *testing.T) {
	for name, e := range map[string]Effects{"ring": ringAxis, "dict": dictIDs, "signal": signalLogic,
		"tuple": meshTuple, "hidden": hidden} {
		if !e.Communicates() {
			t.Errorf("%s: Communicates() = false", name)
		}
	}
	if local.Communicates() || (Effects{Local: true, RemoteDMA: true}).Communicates() || (Effects{}).Communicates() {
		t.Error("a local kernel communicates")
	}
}
