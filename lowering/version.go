package lowering

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a JAX release number such as 0.4.31, 0.11 or 0.10.2rc1.
// The zero Version means "none" (for example, never removed).
type Version struct {
	Major, Minor, Patch int
	// Pre is any suffix after X.Y.Z: a pre-release ("rc1", "dev20250101")
	// sorts before its release, a post-release or fourth component ("1" in
	// 0.9.0.1, "post1") after it.
	Pre string
}

// Latest is the newest JAX line this tool knows; it is the default when a
// project says nothing about its JAX version (spec.md §5).
var Latest = Version{Major: 0, Minor: 11}

// V is shorthand for a release version in the API tables.
func V(major, minor, patch int) Version { return Version{Major: major, Minor: minor, Patch: patch} }

// IsZero reports whether v is the "none" version.
func (v Version) IsZero() bool { return v == Version{} }

// ParseVersion reads "X.Y", "X.Y.Z" and PEP 440-style suffixes such as
// "0.10.2rc1", "0.4.31.dev20240101" or "0.5.0+cuda".
func ParseVersion(s string) (Version, error) {
	orig := s
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "v"))
	if i := strings.IndexByte(s, '+'); i >= 0 { // local version label
		s = s[:i]
	}
	var v Version
	parts := strings.SplitN(s, ".", 4)
	if len(parts) < 2 {
		return Version{}, fmt.Errorf("invalid JAX version %q: want X.Y or X.Y.Z", orig)
	}
	nums := []*int{&v.Major, &v.Minor, &v.Patch}
	for i, p := range parts {
		if i == 3 || (i == 2 && !startsWithDigit(p)) {
			v.Pre = strings.TrimLeft(strings.Join(parts[i:], "."), ".-_")
			break
		}
		digits, rest := splitDigits(p)
		n, err := strconv.Atoi(digits)
		if err != nil || n > 1<<20 {
			return Version{}, fmt.Errorf("invalid JAX version %q: %q is not a number", orig, p)
		}
		*nums[i] = n
		if rest != "" {
			if i+1 < len(parts) {
				return Version{}, fmt.Errorf("invalid JAX version %q", orig)
			}
			v.Pre = strings.TrimLeft(rest, ".-_")
		}
	}
	return v, nil
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

func splitDigits(s string) (string, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// MustParse is ParseVersion for literals in tables; it panics on a typo,
// which the package's tests catch.
func MustParse(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// Compare returns -1, 0 or +1. A pre-release sorts before its release and
// a post-release after it.
func (v Version) Compare(o Version) int {
	for _, d := range [3]int{v.Major - o.Major, v.Minor - o.Minor, v.Patch - o.Patch} {
		if d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
	}
	return comparePre(v.Pre, o.Pre)
}

// comparePre orders suffixes as PEP 440 does: dev < alpha < beta < rc <
// release < post, with numbers compared as numbers (rc2 < rc10). A bare
// number is a fourth release component (JAX shipped 0.9.0.1), so it sorts
// after the release like a post-release.
func comparePre(a, b string) int {
	ra, na, sa := preKey(a)
	rb, nb, sb := preKey(b)
	switch {
	case ra != rb:
		return cmpInt(ra, rb)
	case na != nb:
		return cmpInt(na, nb)
	}
	return strings.Compare(sa, sb)
}

const preRelease = 4 // rank of "no suffix"

// preWords are checked in order, so "alpha" wins over "a".
var preWords = []struct {
	word string
	rank int
}{{"dev", 0}, {"alpha", 1}, {"beta", 2}, {"a", 1}, {"b", 2}, {"rc", 3}, {"c", 3}, {"post", 5}}

// preKey splits a suffix into (rank, number, remainder).
func preKey(pre string) (int, int, string) {
	s := strings.ToLower(strings.TrimLeft(pre, ".-_"))
	if s == "" {
		return preRelease, 0, ""
	}
	rank := 5 // a bare number is a release component: 0.9.0.1
	if !startsWithDigit(s) {
		rank = 3 // unknown words sort with release candidates
		for _, p := range preWords {
			if strings.HasPrefix(s, p.word) {
				rank, s = p.rank, s[len(p.word):]
				break
			}
		}
	}
	digits, rest := splitDigits(strings.TrimLeft(s, ".-_"))
	n, _ := strconv.Atoi(digits)
	return rank, n, rest
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Less reports v < o.
func (v Version) Less(o Version) bool { return v.Compare(o) < 0 }

// AtLeast reports v >= o.
func (v Version) AtLeast(o Version) bool { return v.Compare(o) >= 0 }

// String prints "X.Y" when the patch is zero and there is no suffix, as
// JAX's own release lines are named ("0.11"), else "X.Y.Z[pre]".
func (v Version) String() string {
	if v.Patch == 0 && v.Pre == "" {
		return fmt.Sprintf("%d.%d", v.Major, v.Minor)
	}
	sep := ""
	if startsWithDigit(v.Pre) || strings.HasPrefix(v.Pre, "dev") || strings.HasPrefix(v.Pre, "post") {
		sep = "." // PEP 440 spelling: 0.9.0.1, 0.4.31.dev20240101
	}
	return fmt.Sprintf("%d.%d.%d%s%s", v.Major, v.Minor, v.Patch, sep, v.Pre)
}
