package pyparse

import "testing"

func TestMapperMultiByteAndAstral(t *testing.T) {
	// "é" is 2 bytes / 1 code point / 1 UTF-16 unit; "😀" is 4 bytes /
	// 1 code point / 2 UTF-16 units (a surrogate pair).
	src := []byte("aé😀b\r\nx\ry\n")
	m := NewMapper(src)
	cases := []struct {
		off       int
		line, col int // 1-based line, 1-based code-point column
		l16, c16  int // 0-based line, UTF-16 column
		l8, c8    int // 0-based line, byte column
	}{
		{0, 1, 1, 0, 0, 0, 0},
		{1, 1, 2, 0, 1, 0, 1},  // é
		{3, 1, 3, 0, 2, 0, 3},  // 😀
		{7, 1, 4, 0, 4, 0, 7},  // b
		{8, 1, 5, 0, 5, 0, 8},  // \r
		{10, 2, 1, 1, 0, 1, 0}, // x after CRLF
		{12, 3, 1, 2, 0, 2, 0}, // y after a lone CR
		{14, 4, 1, 3, 0, 3, 0}, // end of file: the empty last line
		{99, 4, 1, 3, 0, 3, 0}, // past the end clamps
		{-5, 1, 1, 0, 0, 0, 0}, // before the start clamps
	}
	for _, c := range cases {
		if l, col := m.LineCol(c.off); l != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
		if l, ch := m.UTF16(c.off); l != c.l16 || ch != c.c16 {
			t.Errorf("UTF16(%d) = %d:%d, want %d:%d", c.off, l, ch, c.l16, c.c16)
		}
		if l, ch := m.UTF8(c.off); l != c.l8 || ch != c.c8 {
			t.Errorf("UTF8(%d) = %d:%d, want %d:%d", c.off, l, ch, c.l8, c.c8)
		}
	}
	if m.Lines() != 4 {
		t.Errorf("Lines() = %d, want 4", m.Lines())
	}
	// Positions back to offsets, clamping out-of-range ones.
	for _, c := range []struct{ line, char, want int }{
		{0, 2, 3},  // after é
		{0, 3, 3},  // inside the surrogate pair: start of 😀
		{0, 4, 7},  // after 😀
		{0, 99, 8}, // past the line's end: before \r\n
		{1, 0, 10},
		{9, 0, len(src)},
	} {
		if got := m.OffsetUTF16(c.line, c.char); got != c.want {
			t.Errorf("OffsetUTF16(%d, %d) = %d, want %d", c.line, c.char, got, c.want)
		}
	}
	if got := m.OffsetUTF8(0, 2); got != 1 {
		t.Errorf("OffsetUTF8 inside é = %d, want 1 (start of the character)", got)
	}
	if got := m.OffsetLineCol(1, 3); got != 3 {
		t.Errorf("OffsetLineCol(1, 3) = %d, want 3", got)
	}
}

func TestMapperInvalidUTF8(t *testing.T) {
	src := []byte("\xff\xfex\n")
	m := NewMapper(src)
	if l, c := m.LineCol(2); l != 1 || c != 3 {
		t.Errorf("each invalid byte counts one column: got %d:%d, want 1:3", l, c)
	}
	if l, c := m.UTF16(2); l != 0 || c != 2 {
		t.Errorf("UTF16 over invalid bytes: got %d:%d, want 0:2", l, c)
	}
}
