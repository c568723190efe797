package lowering

import (
	"strings"
	"testing"
)

// Kernels of the §4 table, as the analysis would summarise them.
var (
	local       = Effects{Local: true}
	ringAxis    = Effects{AxisIndexDeviceAxis: true, AxisName: "x", RemoteDMA: true, MeshIntTupleID: true, DeviceIDs: 1}
	dictIDs     = Effects{DictDeviceID: true, RemoteDMA: true}
	signalMesh  = Effects{SignalDeviceID: true, MeshIntTupleID: true, DeviceIDs: 1}
	signalLogic = Effects{SignalDeviceID: true}
	meshTuple   = Effects{RemoteDMA: true, MeshIntTupleID: true, DeviceIDs: 2}
	hidden      = Effects{RemoteDMA: true, LogicalOnly: true}
)

// The versions every row is checked at.
var tableVersions = []string{"0.4.30", "0.5", "0.7", "0.8", "0.8.2", "0.11"}

// Expected outcomes, by the exception and message they name.
var (
	fine        = Outcome{}
	commNoSM    = Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError", Message: MsgCommWithoutShardMap, Where: "jax/_src/pallas/mosaic/lowering.py"}
	replica     = Outcome{Fails: true, Layer: LayerCustomCall, Error: "NotImplementedError", Message: MsgReplicaLowering, Where: "jax/_src/tpu_custom_call.py"}
	partitionOf = func(v Version) Outcome {
		return Outcome{Fails: true, Layer: LayerCustomCall, Error: "NotImplementedError", Message: PartitionMessage(v), Where: "jax/_src/tpu_custom_call.py"}
	}
	unboundX = func(v Version) Outcome {
		return Outcome{Fails: true, Layer: LayerTrace, Error: "NameError", Message: UnboundAxisMessage(v, "x"), Where: unboundAxisWhere(v)}
	}
)

type row struct {
	name string
	ctx  Context
	eff  Effects
	want func(v Version) Outcome
}

func always(o Outcome) func(Version) Outcome { return func(Version) Outcome { return o } }

// before returns a for versions below cut and b from cut on.
func before(cut Version, a, b func(Version) Outcome) func(Version) Outcome {
	return func(v Version) Outcome {
		if v.Less(cut) {
			return a(v)
		}
		return b(v)
	}
}

var (
	eager   = Context{Kind: CtxEagerSingle}
	jitN    = Context{Kind: CtxJitMulti}
	jitExpl = Context{Kind: CtxJitMulti, ExplicitMesh: true}
	smFull  = Context{Kind: CtxShardMapFull}
	smPart  = Context{Kind: CtxShardMapPartial}
	pmap    = Context{Kind: CtxPmap}
)

var explicitPallas = Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError",
	Message: "pallas_call requires all mesh axes to be Manual, got {axis_types}", Where: "jax/_src/pallas/pallas_call.py"}

var tableRows = []row{
	// eager or jit on one device
	{"eager/local", eager, local, always(fine)},
	{"eager/axis_index", eager, ringAxis, unboundX},
	{"eager/dict ids", eager, dictIDs, before(dictEffectVersion, meshIDOutcomeFor(0), always(commNoSM))},
	{"eager/signal dict ids", eager, Effects{DictDeviceID: true, SignalDictID: true},
		before(signalEffectVersion, meshIDOutcomeFor(0), always(commNoSM))},
	{"eager/signal MESH id", eager, signalMesh, before(V(0, 7, 0), meshIDOutcomeFor(1), always(commNoSM))},
	{"eager/MESH tuple DMA", eager, meshTuple, meshIDOutcomeFor(2)},
	{"eager/hidden", eager, hidden, always(fine)},
	// jit over more than one device, no shard_map
	{"jit multi/local", jitN, local, partitionOf},
	{"jit multi/axis_index", jitN, ringAxis, unboundX},
	{"jit multi/dict ids", jitN, dictIDs, before(dictEffectVersion, meshIDOutcomeFor(0), always(commNoSM))},
	{"jit multi/hidden", jitN, hidden, partitionOf},
	{"jit explicit/local", jitExpl, local, before(V(0, 9, 0), partitionOf, always(explicitPallas))},
	{"jit explicit/dict ids", jitExpl, dictIDs, before(dictEffectVersion, meshIDOutcomeFor(0),
		before(V(0, 9, 0), always(commNoSM), always(explicitPallas)))},
	{"jit explicit/axis_index", jitExpl, ringAxis, unboundX},
	// shard_map, all axes manual
	{"shard_map full/local", smFull, local, always(fine)},
	{"shard_map full/axis_index", smFull, ringAxis, always(fine)},
	// Without the Pallas-level flag lowering has no mesh, even here.
	{"shard_map full/dict ids", smFull, dictIDs, before(dictEffectVersion, meshIDOutcomeFor(0), always(fine))},
	{"shard_map full/signal", smFull, signalMesh, before(V(0, 7, 0), meshIDOutcomeFor(1), always(fine))},
	{"shard_map full/signal LOGICAL", smFull, signalLogic, always(fine)},
	{"shard_map full/MESH tuple DMA", smFull, meshTuple, meshIDOutcomeFor(2)},
	{"shard_map full/MESH tuple DMA and axis_index", smFull, ringAxis, always(fine)},
	{"shard_map full/hidden", smFull, hidden, always(fine)},
	// shard_map, some axes not manual
	{"shard_map partial/local", smPart, local, partitionOf},
	{"shard_map partial/axis_index manual", smPart, ringAxis, partitionOf},
	{"shard_map partial/axis_index not manual", smPart, withNonManual(ringAxis), unboundX},
	{"shard_map partial/hidden", smPart, hidden, partitionOf},
	{"shard_map partial/MESH tuple DMA", smPart, meshTuple, meshIDOutcomeFor(2)},
	// pmap: legacy replica context below 0.8, jit+shard_map from 0.8
	{"pmap/local", pmap, local, always(fine)},
	{"pmap/axis_index", pmap, ringAxis, before(V(0, 8, 0), always(commNoSM), always(fine))},
	{"pmap/dict ids", pmap, dictIDs, before(dictEffectVersion, meshIDOutcomeFor(0), always(fine))},
	{"pmap/MESH tuple DMA", pmap, meshTuple, meshIDOutcomeFor(2)},
	{"pmap/hidden", pmap, hidden, before(V(0, 8, 0), always(replica), always(fine))},
	{"pmap/signal LOGICAL", pmap, signalLogic, before(V(0, 7, 0), always(replica),
		before(V(0, 8, 0), always(commNoSM), always(fine)))},
	// unknown context: never a prediction of failure
	{"unknown/axis_index", Context{}, ringAxis, always(fine)},
	{"unknown/hidden", Context{Kind: CtxUnknown, ExplicitMesh: true}, hidden, always(fine)},
}

func withNonManual(e Effects) Effects { e.AxisIndexNonManual = true; return e }

func meshIDOutcomeFor(n int) func(Version) Outcome {
	return func(v Version) Outcome { return meshIDOutcome(v, n) }
}

func TestPredictTable(t *testing.T) {
	for _, r := range tableRows {
		for _, vs := range tableVersions {
			v := MustParse(vs)
			if got, want := Predict(v, r.ctx, r.eff), r.want(v); got != want {
				t.Errorf("%s at %s:\n got %+v\nwant %+v", r.name, vs, got, want)
			}
		}
	}
}

func TestPredictFailuresAreComplete(t *testing.T) {
	for _, r := range tableRows {
		for _, vs := range tableVersions {
			o := Predict(MustParse(vs), r.ctx, r.eff)
			if o.Fails && (o.Layer == "" || o.Error == "" || o.Where == "") {
				t.Errorf("%s at %s: incomplete outcome %+v", r.name, vs, o)
			}
			if !o.Fails && o != (Outcome{}) {
				t.Errorf("%s at %s: non-failure carries details %+v", r.name, vs, o)
			}
			if o.Fails && o.Error != "AssertionError" && strings.TrimSpace(o.Message) == "" {
				t.Errorf("%s at %s: empty message", r.name, vs)
			}
		}
	}
}
