package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change,
// the default of diff -u and git.
const diffContext = 3

// UnifiedDiff returns a unified diff of old vs new for --diff, with
// "--- a/path" and "+++ b/path" headers naming the display path (absolute
// paths are printed without the a/ b/ prefixes), or "" when they are equal.
// Lines keep their terminators, so a CRLF file diffs as CRLF and a changed
// line ending shows as a change; a last line without a newline is marked
// "\ No newline at end of file" as patch(1) expects.
func UnifiedDiff(display string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a, b := diffSplitLines(old), diffSplitLines(new)
	ops := diffScript(a, b)
	var sb strings.Builder
	from, to := diffHeaderNames(display)
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, to)
	for _, h := range diffHunks(ops) {
		writeDiffHunk(&sb, ops[h[0]:h[1]], a, b)
	}
	return sb.String()
}

func diffHeaderNames(display string) (string, string) {
	p := filepath.ToSlash(display)
	if filepath.IsAbs(display) || strings.HasPrefix(p, "/") {
		return p, p
	}
	return "a/" + p, "b/" + p
}

// diffSplitLines splits after every '\n'; a final piece without one is a
// line of its own, which is how a missing trailing newline is noticed.
func diffSplitLines(src []byte) []string {
	var lines []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n') + 1
		if i == 0 {
			i = len(src)
		}
		lines = append(lines, string(src[:i]))
		src = src[i:]
	}
	return lines
}

// diffOp is one line of the edit script: kept (' '), deleted ('-') or
// inserted ('+'), with the positions in old (ai) and new (bi) before it.
type diffOp struct {
	kind   byte
	ai, bi int
}

// diffScript runs the line diff and expands its runs into one op per line.
func diffScript(a, b []string) []diffOp {
	ids := make(map[string]int)
	intern := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	m := &myers{a: intern(a), b: intern(b)}
	m.diff(0, len(a), 0, len(b))
	ops := make([]diffOp, 0, len(a)+len(b))
	ai, bi := 0, 0
	for _, r := range m.runs {
		for range r.n {
			ops = append(ops, diffOp{r.kind, ai, bi})
			if r.kind != '+' {
				ai++
			}
			if r.kind != '-' {
				bi++
			}
		}
	}
	return ops
}

// diffHunks returns [start, end) ranges of ops to print: each change with
// up to diffContext kept lines around it, merging changes whose gap of kept
// lines is small enough that their contexts would touch.
func diffHunks(ops []diffOp) [][2]int {
	var hunks [][2]int
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		end := i
		for {
			for end < len(ops) && ops[end].kind != ' ' {
				end++
			}
			next := end
			for next < len(ops) && ops[next].kind == ' ' {
				next++
			}
			if next == len(ops) || next-end > 2*diffContext {
				break
			}
			end = next
		}
		hunks = append(hunks, [2]int{max(i-diffContext, 0), min(end+diffContext, len(ops))})
		i = min(end+diffContext, len(ops))
	}
	return hunks
}

func writeDiffHunk(sb *strings.Builder, ops []diffOp, a, b []string) {
	var na, nb int
	for _, op := range ops {
		if op.kind != '+' {
			na++
		}
		if op.kind != '-' {
			nb++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", diffRange(ops[0].ai, na), diffRange(ops[0].bi, nb))
	for _, op := range ops {
		var line string
		if op.kind == '+' {
			line = b[op.bi]
		} else {
			line = a[op.ai]
		}
		sb.WriteByte(op.kind)
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// diffRange formats a hunk range as diff -u does: "start,count", with
// ",1" left out and an empty range naming the line before it.
func diffRange(start0, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start0)
	case 1:
		return fmt.Sprintf("%d", start0+1)
	}
	return fmt.Sprintf("%d,%d", start0+1, count)
}

// myers computes a shortest edit script between two sequences of interned
// lines with Myers' linear-space algorithm ("An O(ND) Difference Algorithm
// and Its Variations", 1986, section 4b): find the middle snake of an
// optimal path by searching from both ends at once, then recurse on the
// two halves. Time is O((N+M)D) and memory O(N+M), so a one-line fix in a
// ten-thousand-line file costs little, and a rewrite of a big file cannot
// exhaust memory the way a quadratic table would.
type myers struct {
	a, b []int
	runs []diffRun
}

// diffRun is n consecutive ops of one kind.
type diffRun struct {
	kind byte
	n    int
}

// emit appends n ops of one kind. Within a change, deletions are put
// before insertions, as diff -u and git print them: the bisection can find
// an insertion first, and although patch(1) accepts either order, a reader
// expects the old line above its replacement. Swapping adjacent '+' and
// '-' runs keeps the script valid, since each side's lines stay in order.
func (m *myers) emit(kind byte, n int) {
	if n == 0 {
		return
	}
	if k := len(m.runs); kind == '-' && k > 0 && m.runs[k-1].kind == '+' {
		ins := m.runs[k-1]
		m.runs = m.runs[:k-1]
		m.emit('-', n)
		m.runs = append(m.runs, ins)
		return
	}
	if k := len(m.runs); k > 0 && m.runs[k-1].kind == kind {
		m.runs[k-1].n += n
		return
	}
	m.runs = append(m.runs, diffRun{kind, n})
}

// diff appends the script turning a[a0:a1] into b[b0:b1]. Common prefix
// and suffix are peeled off first: cheap, and it guarantees both sides
// differ at their ends, which the bisection needs to make progress.
func (m *myers) diff(a0, a1, b0, b1 int) {
	p := 0
	for a0+p < a1 && b0+p < b1 && m.a[a0+p] == m.b[b0+p] {
		p++
	}
	m.emit(' ', p)
	a0, b0 = a0+p, b0+p
	s := 0
	for a1-s > a0 && b1-s > b0 && m.a[a1-s-1] == m.b[b1-s-1] {
		s++
	}
	a1, b1 = a1-s, b1-s
	switch {
	case a0 == a1:
		m.emit('+', b1-b0)
	case b0 == b1:
		m.emit('-', a1-a0)
	default:
		x, y := m.bisect(a0, a1, b0, b1)
		m.diff(a0, x, b0, y)
		m.diff(x, a1, y, b1)
	}
	m.emit(' ', s)
}

// bisect returns a point on an optimal path, found where the forward
// search (vf[k]: furthest x on diagonal k = x-y) meets the reverse search
// (vr, the same counted from the ends). Reverse diagonal delta-k mirrors
// forward diagonal k. With delta odd the searches first meet during a
// forward step, with delta even during a reverse one. Diagonals that ran
// off the grid are trimmed from later steps (lo/hi), so off-grid values
// never take part. The structure follows diff-match-patch's diff_bisect,
// whose behaviour on these edge cases is well exercised.
func (m *myers) bisect(a0, a1, b0, b1 int) (int, int) {
	n, mm := a1-a0, b1-b0
	maxD := (n + mm + 1) / 2
	off := maxD
	vf, vr := make([]int, 2*maxD+2), make([]int, 2*maxD+2)
	for i := range vf {
		vf[i], vr[i] = -1, -1
	}
	vf[off+1], vr[off+1] = 0, 0
	delta := n - mm
	odd := delta%2 != 0
	var fLo, fHi, rLo, rHi int
	for d := 0; d < maxD; d++ {
		for k := -d + fLo; k <= d-fHi; k += 2 {
			x := furthest(vf, off, k, d)
			y := x - k
			for x < n && y < mm && m.a[a0+x] == m.b[b0+y] {
				x, y = x+1, y+1
			}
			vf[off+k] = x
			switch rk := off + delta - k; {
			case x > n:
				fHi += 2
			case y > mm:
				fLo += 2
			case odd && rk >= 0 && rk < len(vr) && vr[rk] != -1 && x >= n-vr[rk]:
				return a0 + x, b0 + y
			}
		}
		for k := -d + rLo; k <= d-rHi; k += 2 {
			x := furthest(vr, off, k, d)
			y := x - k
			for x < n && y < mm && m.a[a1-x-1] == m.b[b1-y-1] {
				x, y = x+1, y+1
			}
			vr[off+k] = x
			switch fk := off + delta - k; {
			case x > n:
				rHi += 2
			case y > mm:
				rLo += 2
			case !odd && fk >= 0 && fk < len(vf) && vf[fk] != -1 && vf[fk] >= n-x:
				return a0 + vf[fk], b0 + vf[fk] - (fk - off)
			}
		}
	}
	// Reached only when nothing is common (D = N+M): delete all, insert all.
	return a1, b0
}

// furthest picks the better predecessor on diagonal k after d-1 steps:
// down from k+1 (an insertion) or right from k-1 (a deletion).
func furthest(v []int, off, k, d int) int {
	if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
		return v[off+k+1]
	}
	return v[off+k-1] + 1
}
