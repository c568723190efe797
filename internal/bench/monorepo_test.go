package main

import (
	"io"
	"slices"
	"testing"
)

func TestParseCopies(t *testing.T) {
	for in, want := range map[string][]int{"3": {1, 2, 3}, "1": {1}, "1,4,16": {1, 4, 16}} {
		got, err := parseCopies(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("parseCopies(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "x", "4,2", "1,1", "2000"} {
		if _, err := parseCopies(in); err == nil {
			t.Errorf("parseCopies(%q): no error", in)
		}
	}
}

func TestMonorepoFlags(t *testing.T) {
	o, err := parseFlags([]string{"-monorepo", "2", "-profile", "/tmp/p", "a", "b"}, io.Discard)
	if err != nil || !slices.Equal(o.copies, []int{1, 2}) || !slices.Equal(o.trees, []string{"a", "b"}) || o.profile != "/tmp/p" {
		t.Fatalf("parseFlags: %+v, %v", o, err)
	}
	for _, args := range [][]string{{"-monorepo", "2"}, {"-monorepo", "2", "-lines", "10k", "a"}, {"-profile", "/tmp/p"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%v): no error", args)
		}
	}
}
