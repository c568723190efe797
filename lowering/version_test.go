package lowering

import (
	"sort"
	"testing"
)

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in   string
		want Version
		str  string
	}{
		{"0.4.31", V(0, 4, 31), "0.4.31"},
		{"0.11", V(0, 11, 0), "0.11"},
		{"0.11.0", V(0, 11, 0), "0.11"},
		{"v0.8.1", V(0, 8, 1), "0.8.1"},
		{" 0.7.2 ", V(0, 7, 2), "0.7.2"},
		{"0.10.2rc1", Version{0, 10, 2, "rc1"}, "0.10.2rc1"},
		{"0.4.31.dev20240101", Version{0, 4, 31, "dev20240101"}, "0.4.31.dev20240101"},
		{"0.5.0+cuda", V(0, 5, 0), "0.5"},
		{"0.5.0+cuda12.local", V(0, 5, 0), "0.5"},
		{"0.9.0.1", Version{0, 9, 0, "1"}, "0.9.0.1"},
		{"0.6.0rc", Version{0, 6, 0, "rc"}, "0.6.0rc"},
		{"0.7rc1", Version{0, 7, 0, "rc1"}, "0.7.0rc1"},
	}
	for _, tt := range tests {
		got, err := ParseVersion(tt.in)
		if err != nil {
			t.Errorf("ParseVersion(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseVersion(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
		if s := got.String(); s != tt.str {
			t.Errorf("ParseVersion(%q).String() = %q, want %q", tt.in, s, tt.str)
		}
	}
}

func TestParseVersionInvalid(t *testing.T) {
	for _, in := range []string{"", "0", "jax", "a.b", "0.x", "0..1", "0.x.1", "-1.2", "0.4rc1.5", "+cuda", "99999999.1"} {
		if v, err := ParseVersion(in); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want an error", in, v)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse(\"bad\") did not panic")
		}
	}()
	MustParse("bad")
}

// TestVersionOrder lists versions in ascending order; sorting a shuffled
// copy must reproduce it.
func TestVersionOrder(t *testing.T) {
	ordered := []string{
		"0.4.30", "0.4.31.dev20240101", "0.4.31a1", "0.4.31b1", "0.4.31rc1", "0.4.31",
		"0.4.31.post1", "0.5", "0.9.0", "0.9.0.1", "0.9.1", "0.10.2rc2", "0.10.2rc10",
		"0.10.2", "0.11", "1.0",
	}
	vs := make([]Version, len(ordered))
	for i, s := range ordered {
		vs[len(ordered)-1-i] = MustParse(s)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].Less(vs[j]) })
	for i, s := range ordered {
		if want := MustParse(s); vs[i] != want {
			t.Fatalf("position %d: got %v, want %v (full order %v)", i, vs[i], want, vs)
		}
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"0.11", "0.11.0", 0},
		{"0.10.2rc1", "0.10.2", -1},
		{"0.10.2", "0.10.2rc1", 1},
		{"0.5.0+cuda", "0.5.0", 0},
		{"0.4.31.dev20240101", "0.4.31rc1", -1},
		{"0.8", "0.7.2", 1},
		{"0.10.0", "0.9.2", 1},
	}
	for _, tt := range tests {
		if got := MustParse(tt.a).Compare(MustParse(tt.b)); got != tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if !V(0, 8, 0).AtLeast(V(0, 8, 0)) || V(0, 8, 0).Less(V(0, 8, 0)) {
		t.Error("AtLeast/Less disagree on equal versions")
	}
}

func TestLatestAndZero(t *testing.T) {
	if Latest != V(0, 11, 0) || Latest.String() != "0.11" {
		t.Errorf("Latest = %v, want 0.11", Latest)
	}
	if !(Version{}).IsZero() || V(0, 4, 0).IsZero() {
		t.Error("IsZero is wrong")
	}
}
