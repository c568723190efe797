package lowering

import (
	"strings"
	"testing"
)

// The rank-1 tiling rule per version, as the oracle recorded it on 0.4.33,
// 0.4.38 and 0.12 (/tmp probes of float32, bfloat16, int8, int32, bool).
func TestRank1BlockOutcome(t *testing.T) {
	for _, c := range []struct {
		v       Version
		chip    string
		bs, as  int
		dtype   string
		fails   bool
		judged  bool
		message string
	}{
		{V(0, 4, 30), "", 100, 4096, "float32", false, false, ""},
		{V(0, 4, 33), "", 100, 4096, "float32", true, true, "last two dimensions"},
		{V(0, 4, 33), "", 256, 4096, "bool", true, true, "last two dimensions"}, // bool is 8 bits there
		{V(0, 4, 38), "", 256, 4096, "bool", false, true, ""},
		{V(0, 4, 38), "", 640, 4096, "float32", false, true, ""},
		{V(0, 4, 38), "", 128, 4096, "bfloat16", true, true, "multiple of the tiling size (256 = 128 * (32 // 16)) of the array shape."},
		{V(0, 8, 3), "", 384, 3072, "float32", false, true, ""},
		{V(0, 12, 0), "", 384, 3072, "float32", true, true, "multiple of 1024, or 3)"},
		{V(0, 12, 0), "", 640, 4096, "float32", true, true, "(128 = 128 * (32 // 32))"},
		{V(0, 12, 0), "", 512, 1000, "float32", false, true, ""},
		{V(0, 12, 0), "", 3072, 6144, "float32", false, true, ""},
		{V(0, 12, 0), "8t", 3072, 6144, "float32", true, true, "multiple of 2048"},
		{V(0, 12, 0), "", 1000, 1000, "float32", false, true, ""},
		{V(0, 12, 0), "", 256, 8192, "int8", true, true, "(512 = 128 * (32 // 8))"},
		{V(0, 12, 0), "", 100, 4096, "float64", false, false, ""},
		{V(0, 12, 0), "", 100, 4096, "", false, false, ""},
	} {
		o, ok := Rank1BlockOutcome(c.v, c.chip, c.bs, c.as, c.dtype)
		if ok != c.judged || o.Fails != c.fails || !strings.Contains(o.Message, c.message) {
			t.Errorf("%v %s %d/%d %s: judged %v fails %v %q; want %v %v %q", c.v, c.chip, c.bs, c.as, c.dtype, ok, o.Fails, o.Message, c.judged, c.fails, c.message)
		}
	}
}
