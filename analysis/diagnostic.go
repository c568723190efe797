package analysis

import (
	"strings"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// Severity orders findings; lower values are more severe.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInfo
	SeverityHint
)

// String is the spelling used in every output format and in config.
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "unknown"
}

// ParseSeverity is the inverse of String.
func ParseSeverity(s string) (Severity, bool) {
	for _, v := range []Severity{SeverityError, SeverityWarning, SeverityInfo, SeverityHint} {
		if v.String() == s {
			return v, true
		}
	}
	return 0, false
}

// Position is a printed position: 1-based lines and 1-based columns counted
// in Unicode code points, as spec.md §2 requires for text, JSON and SARIF.
type Position struct {
	Line, Column       int
	EndLine, EndColumn int
}

// Location is a range in one file, kept both as byte offsets (the engine's
// currency) and as the printed Position derived from them.
type Location struct {
	File string       // absolute path
	Span pyparse.Span // byte offsets
	Pos  Position
}

// Related is a secondary location of a diagnostic: one step of a witness
// path, or the communicating operation.
type Related struct {
	Location
	Message string
}

// Applicability tells front ends which fixes they may apply unasked.
type Applicability int

const (
	// Safe fixes keep behaviour; --fix and fixAll apply them.
	Safe Applicability = iota
	// Unsafe fixes change behaviour the user must review (--unsafe-fixes).
	Unsafe
	// DisplayOnly fixes are offered in the editor but never applied in bulk.
	DisplayOnly
)

// String is the spelling used in JSON and SARIF output.
func (a Applicability) String() string {
	switch a {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "display-only"
}

// TextEdit replaces the bytes of Span in File with NewText.
type TextEdit struct {
	Location
	NewText string
}

// SuggestedFix is one alternative way to resolve a diagnostic; all of its
// edits apply together.
type SuggestedFix struct {
	Title         string
	Applicability Applicability
	Edits         []TextEdit
}

// Diagnostic is the single value every front end renders: terminal lines,
// JSON, SARIF, GitHub annotations, LSP diagnostics and code actions.
type Diagnostic struct {
	Code     string // PAL + 3 digits, stable forever
	Name     string // kebab-case rule name
	Severity Severity
	Location
	Message string
	Related []Related
	Fixes   []SuggestedFix
	// Detail is extra explanation for hovers: the predicted JAX error, the
	// JAX version used and why. Not printed by check.
	Detail string
	// JAXError is the first error the configured JAX version raises where
	// the finding points, as JAX words it; nil when the rule cannot say.
	JAXError *JAXError
}

// JAXError is a Python exception JAX raises: its type ("NameError") and
// message in the predicted version's wording. Parts JAX fills in at run
// time that the source does not give (a shape, an axis type) appear as
// {placeholders}.
type JAXError struct {
	Type    string
	Message string
}

// PredictsJAXError reports whether diagnostics of this code carry the
// jax_error field in JSON and SARIF (spec.md §2): the SPMD (PAL1xx) and
// kernel-configuration (PAL2xx) rules, and any other finding that names one.
func (d *Diagnostic) PredictsJAXError() bool {
	return d.JAXError != nil || strings.HasPrefix(d.Code, "PAL1") || strings.HasPrefix(d.Code, "PAL2")
}
