package lowering

import "testing"

func TestParseChip(t *testing.T) {
	for in, want := range map[string]string{
		"v6e": "v6e", "TPU v6e": "v6e", "TPU v6 lite": "v6e", "V7X": "7x", "tpu7x": "7x", "TPU7x": "7x",
		"v7": "7", "7": "7", "v5p": "v5p", "v5lite": "v5e", "8t": "8t", " v4 ": "v4",
	} {
		if got, ok := ParseChip(in); !ok || got != want {
			t.Errorf("ParseChip(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "v9", "gpu", "h100", "v6"} {
		if got, ok := ParseChip(in); ok {
			t.Errorf("ParseChip(%q) = %q, want no chip", in, got)
		}
	}
}
