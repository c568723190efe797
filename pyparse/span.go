package pyparse

// Span is a half-open range [Start, End) of byte offsets into a file's source.
type Span struct {
	Start, End int
}

// Len is the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether off lies inside the span (End excluded).
func (s Span) Contains(off int) bool { return off >= s.Start && off < s.End }

// Overlaps reports whether two spans share at least one byte, or are both
// empty insertions at the same offset.
func (s Span) Overlaps(o Span) bool {
	if s.Start == s.End && o.Start == o.End {
		return s.Start == o.Start
	}
	return s.Start < o.End && o.Start < s.End
}
