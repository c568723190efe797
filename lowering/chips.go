package lowering

import "strings"

// Chips are the TPU generations JAX knows, by the names its ChipVersion
// enum prints (jax/_src/tpu_info.py: "v5e", "v6e", "7x", ...). The
// `tpu-chip` setting names one; only the chip-dependent checks read it.
var Chips = []string{"v2", "v3", "v4i", "v4", "v5e", "v5p", "v6e", "7", "7x", "8i", "8t"}

// chipAliases are the other spellings users write for a chip: the marketing
// names ("v7x", "TPU7x") and JAX's device kinds ("TPU v6 lite").
var chipAliases = map[string]string{
	"v5lite": "v5e", "v5 lite": "v5e", "v6lite": "v6e", "v6 lite": "v6e", "v4lite": "v4i", "v4 lite": "v4i",
	"v7": "7", "v7x": "7x", "v8i": "8i", "v8t": "8t",
}

// ParseChip returns the canonical name of a chip setting ("TPU v6e",
// "v6e", "V7X" and "tpu7x" are v6e, v6e, 7x and 7x), and false for names
// that are no TPU chip JAX knows.
func ParseChip(s string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.TrimSpace(strings.TrimPrefix(n, "tpu"))
	if c, ok := chipAliases[n]; ok {
		return c, true
	}
	for _, c := range Chips {
		if n == c {
			return c, true
		}
	}
	return "", false
}
