package pyparse

import (
	"math"
	"sort"
	"unicode/utf8"
)

// Mapper converts between byte offsets and the three coordinate systems the
// front ends print: 1-based line / 1-based code-point column (CLI, JSON,
// SARIF), 0-based line / UTF-16 unit (LSP default) and 0-based line / byte
// (LSP with utf-8 position encoding).
//
// A line ends after "\n", after "\r\n", or after a lone "\r", as Python and
// LSP both define it. Invalid UTF-8 counts one column (and one UTF-16 unit)
// per bad byte, the way a decoder substituting U+FFFD would.
type Mapper struct {
	src []byte
	// lines holds the byte offset where each line starts, in 32 bits (a
	// table per file for the whole run: half the size of ints; no source
	// the tool reads comes near 4 GiB, and NewMapper refuses one that does).
	lines []uint32
}

// NewMapper indexes the line starts of src.
func NewMapper(src []byte) *Mapper {
	if uint64(len(src)) > math.MaxUint32 {
		panic("pyparse: a source of 4 GiB or more")
	}
	n := 1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			n++
		}
	}
	lines := make([]uint32, 1, n)
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, uint32(i+1))
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			lines = append(lines, uint32(i+1))
		}
	}
	return &Mapper{src: src, lines: lines}
}

// Lines is the number of lines (a trailing newline starts an empty last line).
func (m *Mapper) Lines() int { return len(m.lines) }

// LineStart returns the byte offset of 0-based line, clamped to the file.
func (m *Mapper) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(m.lines) {
		return len(m.src)
	}
	return int(m.lines[line])
}

// LineEnd returns the byte offset of the end of 0-based line's content,
// before its terminator.
func (m *Mapper) LineEnd(line int) int {
	end := m.LineStart(line + 1)
	if line+1 >= len(m.lines) {
		end = len(m.src)
	}
	for end > m.LineStart(line) && (m.src[end-1] == '\n' || m.src[end-1] == '\r') {
		end--
	}
	return end
}

func (m *Mapper) clamp(off int) int {
	if off < 0 {
		return 0
	}
	if off > len(m.src) {
		return len(m.src)
	}
	return off
}

// Line returns the 0-based line containing off (clamped).
func (m *Mapper) Line(off int) int {
	off = m.clamp(off)
	return sort.Search(len(m.lines), func(i int) bool { return int(m.lines[i]) > off }) - 1
}

// LineCol returns the 1-based line and 1-based code-point column of off.
func (m *Mapper) LineCol(off int) (line, col int) {
	off = m.clamp(off)
	l := m.Line(off)
	return l + 1, m.count(int(m.lines[l]), off, false) + 1
}

// UTF16 returns the 0-based line and UTF-16 column of off.
func (m *Mapper) UTF16(off int) (line, char int) {
	off = m.clamp(off)
	l := m.Line(off)
	return l, m.count(int(m.lines[l]), off, true)
}

// UTF8 returns the 0-based line and byte column of off.
func (m *Mapper) UTF8(off int) (line, char int) {
	off = m.clamp(off)
	l := m.Line(off)
	return l, off - int(m.lines[l])
}

// count counts code points (or UTF-16 units) in src[from:to].
func (m *Mapper) count(from, to int, utf16 bool) int {
	n := 0
	for i := from; i < to; {
		r, size := utf8.DecodeRune(m.src[i:to])
		i += size
		n++
		if utf16 && r >= 0x10000 && size == 4 {
			n++
		}
	}
	return n
}

// advance walks from the start of line by n code points (or UTF-16 units),
// stopping at the end of the line's content. A column that falls inside a
// surrogate pair lands on the start of that character.
func (m *Mapper) advance(line, n int, utf16 bool) int {
	if line >= len(m.lines) {
		return len(m.src)
	}
	if line < 0 {
		return 0
	}
	i, end := int(m.lines[line]), m.LineEnd(line)
	for n > 0 && i < end {
		r, size := utf8.DecodeRune(m.src[i:end])
		w := 1
		if utf16 && r >= 0x10000 && size == 4 {
			w = 2
		}
		if w > n {
			break
		}
		n -= w
		i += size
	}
	return i
}

// OffsetUTF16 converts a 0-based line and UTF-16 column to a byte offset,
// clamping out-of-range positions to the nearest valid offset.
func (m *Mapper) OffsetUTF16(line, char int) int { return m.advance(line, char, true) }

// OffsetUTF8 converts a 0-based line and byte column to a byte offset, clamped.
func (m *Mapper) OffsetUTF8(line, char int) int {
	if line >= len(m.lines) {
		return len(m.src)
	}
	if line < 0 {
		return 0
	}
	off := int(m.lines[line]) + max(char, 0)
	if end := m.LineEnd(line); off > end {
		off = end
	}
	for off > int(m.lines[line]) && off < len(m.src) && !utf8.RuneStart(m.src[off]) {
		off--
	}
	return off
}

// OffsetLineCol converts a 1-based line and code-point column to a byte offset, clamped.
func (m *Mapper) OffsetLineCol(line, col int) int { return m.advance(line-1, col-1, false) }
