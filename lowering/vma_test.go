package lowering

import (
	"strings"
	"testing"
)

func TestOutVMA(t *testing.T) {
	tests := []struct {
		v              Version
		pallas, kernel bool
		keyword        string
	}{
		{V(0, 6, 1), false, false, "vma"},
		{V(0, 6, 2), true, false, "vma"},
		{V(0, 9, 2), true, false, "vma"},
		{V(0, 10, 0), true, false, "manual_axis_type"},
		{V(0, 10, 1), true, true, "manual_axis_type"},
		{V(0, 12, 0), true, true, "manual_axis_type"},
	}
	for _, tt := range tests {
		if got := OutVMAChecked(tt.v, PallasCallQual); got != tt.pallas {
			t.Errorf("OutVMAChecked(%s, pallas_call) = %v", tt.v, got)
		}
		if got := OutVMAChecked(tt.v, KernelEntryQual); got != tt.kernel {
			t.Errorf("OutVMAChecked(%s, pl.kernel) = %v", tt.v, got)
		}
		if OutVMAChecked(tt.v, plgpu+"kernel") {
			t.Errorf("OutVMAChecked(%s, plgpu.kernel): plgpu.kernel is never judged", tt.v)
		}
		o := OutVMAMissing(tt.v)
		want := "When `check_vma=True` on `jax.shard_map`, `" + tt.keyword + "` on `jax.ShapeDtypeStruct` must not be `None`."
		if OutVMAKeyword(tt.v) != tt.keyword || !o.Fails || o.Error != "ValueError" || o.Layer != LayerTrace || !strings.HasPrefix(o.Message, want) {
			t.Errorf("OutVMAMissing(%s) = %+v; want a trace-time ValueError starting %q", tt.v, o, want)
		}
	}
}

func TestRepRuleMissing(t *testing.T) {
	for _, tt := range []struct {
		v    Version
		repo string // "" when the check accepts pallas_call
	}{
		{V(0, 4, 29), "google/jax"}, {V(0, 4, 33), "google/jax"}, {V(0, 4, 34), "jax-ml/jax"},
		{V(0, 6, 0), "jax-ml/jax"}, {V(0, 6, 1), ""}, {V(0, 11, 0), ""},
	} {
		o, ok := RepRuleMissing(tt.v)
		if ok != (tt.repo != "") || ok && (o.Error != "NotImplementedError" || !strings.HasSuffix(o.Message, "https://github.com/"+tt.repo+"/issues")) {
			t.Errorf("RepRuleMissing(%s) = %+v, %v; want repo %q", tt.v, o, ok, tt.repo)
		}
	}
}
