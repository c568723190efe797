package main

import (
	"strings"
)

// annotate gives a block the comments and docstrings real code has: a
// docstring under some defs and a comment line before some statements.
// Without them the corpus is about twice as dense in tokens per line as
// real Python, and lines/s figures would not compare. Comment lines are
// valid between any two lines outside strings, and templates have no
// multi-line strings other than docstrings, which are copied untouched.
func (g *gen) annotate(block string, jax bool) string {
	pool := plainComments
	if jax {
		pool = jaxComments
	}
	lines := strings.SplitAfter(block, "\n")
	var b strings.Builder
	inDoc := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		ind := l[:len(l)-len(strings.TrimLeft(l, " "))]
		if strings.HasPrefix(t, `"""`) && !(len(t) > 6 && strings.HasSuffix(t, `"""`)) {
			inDoc = !inDoc
		}
		if !inDoc && ind != "" && t != "" && !strings.HasPrefix(t, `"""`) && !strings.HasPrefix(t, ")") && g.chance(0.1) {
			b.WriteString(ind + pick(g, pool) + "\n")
		}
		b.WriteString(l)
		if isDef(t) && i+1 < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i+1]), `"""`) && g.chance(0.5) {
			b.WriteString(g.docstring(ind + "    "))
		}
	}
	return b.String()
}

func isDef(t string) bool {
	return (strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") || strings.HasPrefix(t, "class ")) &&
		strings.HasSuffix(t, ":")
}

// docstring is a one- to six-line docstring at indentation ind.
func (g *gen) docstring(ind string) string {
	first := capitalize(pick(g, verbs)) + "s the " + pick(g, nouns) + " " + pick(g, nouns) + "s."
	if g.chance(0.4) {
		return ind + `"""` + first + `"""` + "\n"
	}
	var b strings.Builder
	b.WriteString(ind + `"""` + first + "\n\n")
	for i, n := 0, g.between(1, 3); i < n; i++ {
		b.WriteString(ind + pick(g, docLines) + "\n")
	}
	b.WriteString(ind + `"""` + "\n")
	return b.String()
}

var docLines = []string{
	"The result keeps the input's dtype; callers rely on it.",
	"Runs once per step, so keep allocations out of the hot path.",
	"Raises ValueError when the input is empty.",
	"Order is preserved, which the tests check.",
	"This is the slow path; the fast one lives next to the caller.",
	"See the design note in the package docstring for why.",
}

var jaxComments = []string{
	"# Keep blocks a multiple of (8, 128) so Mosaic can tile them.",
	"# The semaphores are reused across iterations; wait before the next start.",
	"# TODO(perf): fuse this with the previous step.",
	"# Cast once here instead of inside the loop.",
	"# NOTE: callers rely on the output keeping the input dtype.",
	"# Neighbour on the ring; wraps around at the last device.",
	"# Accumulate in float32 even for bf16 inputs.",
}

var plainComments = []string{
	"# Skip empty inputs early; the loaders yield them for padding.",
	"# Sorted for deterministic output.",
	"# TODO: make this configurable.",
	"# Keep this cheap: it runs for every record.",
	"# NOTE: the order of these checks matters.",
	"# Fall back to the defaults when the file is missing.",
}
