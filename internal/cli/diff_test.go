package cli

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiffEqual(t *testing.T) {
	if d := UnifiedDiff("a.py", []byte("x\n"), []byte("x\n")); d != "" {
		t.Errorf("equal inputs gave %q", d)
	}
}

func TestUnifiedDiffGolden(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"one line changed, context clipped at file start",
			"import jax\nx = pltpu.TPUCompilerParams()\ny = 1\nz = 2\nw = 3\nv = 4\n",
			"import jax\nx = pltpu.CompilerParams()\ny = 1\nz = 2\nw = 3\nv = 4\n",
			"--- a/pkg/a b.py\n+++ b/pkg/a b.py\n@@ -1,5 +1,5 @@\n import jax\n-x = pltpu.TPUCompilerParams()\n+x = pltpu.CompilerParams()\n y = 1\n z = 2\n w = 3\n"},
		{"CRLF lines keep their terminators",
			"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n",
			"--- a/pkg/a b.py\n+++ b/pkg/a b.py\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n"},
		{"no newline at end of old",
			"a\nb", "a\nb\n",
			"--- a/pkg/a b.py\n+++ b/pkg/a b.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"no newline at end of both, unchanged last line",
			"a\nb\nc", "A\nb\nc",
			"--- a/pkg/a b.py\n+++ b/pkg/a b.py\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n"},
		{"from empty",
			"", "a\nb\n",
			"--- a/pkg/a b.py\n+++ b/pkg/a b.py\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"to empty",
			"a\n", "",
			"--- a/pkg/a b.py\n+++ b/pkg/a b.py\n@@ -1 +0,0 @@\n-a\n"},
		{"insertion at top",
			"b\nc\n", "a\nb\nc\n",
			"--- a/pkg/a b.py\n+++ b/pkg/a b.py\n@@ -1,2 +1,3 @@\n+a\n b\n c\n"},
	}
	for _, tt := range tests {
		if got := UnifiedDiff("pkg/a b.py", []byte(tt.old), []byte(tt.new)); got != tt.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}

func TestUnifiedDiffHunks(t *testing.T) {
	var old []string
	for i := 1; i <= 30; i++ {
		old = append(old, strconv.Itoa(i))
	}
	newLines := append([]string(nil), old...)
	newLines[1], newLines[8], newLines[25] = "two", "nine", "twenty-six" // 2 and 9 share a hunk, 26 does not
	got := UnifiedDiff("/abs/f.py", []byte(strings.Join(old, "\n")+"\n"), []byte(strings.Join(newLines, "\n")+"\n"))
	headers := []string{"--- /abs/f.py", "+++ /abs/f.py", "@@ -1,12 +1,12 @@", "@@ -23,7 +23,7 @@"}
	for _, h := range headers {
		if !strings.Contains(got, h+"\n") {
			t.Errorf("missing %q in\n%s", h, got)
		}
	}
	if n := strings.Count(got, "@@ -"); n != 2 {
		t.Errorf("%d hunks, want 2:\n%s", n, got)
	}
}

// TestUnifiedDiffRandom checks on random inputs that the diff applies back
// to the new text and that its edit script is as short as an LCS allows.
func TestUnifiedDiffRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		a, b := diffTestLines(rng), diffTestLines(rng)
		old, new := strings.Join(a, ""), strings.Join(b, "")
		if patched := diffTestPatch(t, old, UnifiedDiff("f.py", []byte(old), []byte(new))); patched != new {
			t.Fatalf("iter %d: patch of %q gave %q, want %q", iter, old, patched, new)
		}
		ops := diffScript(a, b)
		changes := 0
		for i, op := range ops {
			if op.kind != ' ' {
				changes++
			}
			if i > 0 && op.kind == '-' && ops[i-1].kind == '+' {
				t.Fatalf("iter %d: deletion after insertion in %q -> %q", iter, a, b)
			}
		}
		if want := len(a) + len(b) - 2*diffTestLCS(a, b); changes != want {
			t.Fatalf("iter %d: %d changes, optimum %d for %q -> %q", iter, changes, want, a, b)
		}
	}
}

func diffTestLines(rng *rand.Rand) []string {
	n := rng.IntN(14)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = string(rune('a'+rng.IntN(4))) + "\n"
	}
	if n > 0 && rng.IntN(4) == 0 {
		lines[n-1] = strings.TrimSuffix(lines[n-1], "\n")
	}
	return lines
}

func diffTestLCS(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// diffTestPatch is a minimal patch(1) for the diffs UnifiedDiff writes,
// checking context lines and hunk positions as it goes.
func diffTestPatch(t *testing.T, old, diff string) string {
	t.Helper()
	if diff == "" {
		return old
	}
	src := diffSplitLines([]byte(old))
	lines := diffSplitLines([]byte(diff))[2:]
	var out []string
	pos := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "@@") {
			var start int
			fmt.Sscanf(l, "@@ -%d", &start)
			if start > 0 && !strings.Contains(strings.Fields(l)[1], ",0") {
				start--
			}
			out, pos = append(out, src[pos:start]...), start
			continue
		}
		text := l[1:]
		if i+1 < len(lines) && lines[i+1] == "\\ No newline at end of file\n" {
			text = strings.TrimSuffix(text, "\n")
			i++
		}
		if l[0] != '+' {
			if pos >= len(src) || src[pos] != text {
				t.Fatalf("context mismatch at old line %d: %q\n%s", pos+1, text, diff)
			}
			pos++
		}
		if l[0] != '-' {
			out = append(out, text)
		}
	}
	return strings.Join(append(out, src[pos:]...), "")
}

func BenchmarkUnifiedDiff(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "line %d\n", i)
	}
	old := sb.String()
	new := strings.Replace(old, "line 10000\n", "changed\n", 1)
	for b.Loop() {
		UnifiedDiff("f.py", []byte(old), []byte(new))
	}
}
