package cli

import (
	"encoding/json"
	"io"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// The JSON document of spec §2. Field order in these structs is the key
// order users see; encoding/json keeps it, which is why these are structs
// and not maps. Slices are always non-nil so empty lists print as [] and
// consumers never need a null check.
type jsonReport struct {
	Version      int              `json:"version"`
	Tool         jsonTool         `json:"tool"`
	JAXVersion   string           `json:"jax_version"`
	FilesChecked int              `json:"files_checked"`
	Diagnostics  []jsonDiagnostic `json:"diagnostics"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonDiagnostic struct {
	Code      string        `json:"code"`
	Name      string        `json:"name"`
	Severity  string        `json:"severity"`
	File      string        `json:"file"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"end_line"`
	EndColumn int           `json:"end_column"`
	Message   string        `json:"message"`
	Related   []jsonRelated `json:"related"`
	Fixes     []jsonFix     `json:"fixes"`
	// JAXError is present for the rules that predict JAX's error (null
	// when they cannot say) and absent for the others: jaxErrorField.
	JAXError jaxErrorField `json:"jax_error,omitzero"`
}

// jsonJAXError is the jax_error object of spec §2.
type jsonJAXError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// jaxErrorField is jax_error: omitted when unset, null when present
// without a prediction.
type jaxErrorField struct {
	set bool
	err *jsonJAXError
}

func (f jaxErrorField) IsZero() bool { return !f.set }

func (f jaxErrorField) MarshalJSON() ([]byte, error) { return json.Marshal(f.err) }

type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type jsonFix struct {
	Title         string     `json:"title"`
	Applicability string     `json:"applicability"`
	Edits         []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	NewText   string `json:"new_text"`
}

// WriteJSON writes the spec §2 JSON document (format version 1), indented,
// with a trailing newline. HTML escaping is off: messages quote Python
// code such as `a < b` and are read by people and tools, not browsers.
func WriteJSON(w io.Writer, r Report) error {
	doc := jsonReport{
		Version:      1,
		Tool:         jsonTool{Name: "pallas-ls", Version: r.ToolVersion},
		JAXVersion:   r.JAXVersion,
		FilesChecked: r.FilesChecked,
		Diagnostics:  make([]jsonDiagnostic, 0, len(r.Diagnostics)),
	}
	for _, d := range r.Diagnostics {
		doc.Diagnostics = append(doc.Diagnostics, toJSONDiagnostic(r, d))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func toJSONDiagnostic(r Report, d analysis.Diagnostic) jsonDiagnostic {
	jd := jsonDiagnostic{
		Code: d.Code, Name: d.Name, Severity: d.Severity.String(),
		File: r.path(d.File), Line: d.Pos.Line, Column: d.Pos.Column,
		EndLine: d.Pos.EndLine, EndColumn: d.Pos.EndColumn,
		Message: d.Message,
		Related: make([]jsonRelated, 0, len(d.Related)),
		Fixes:   make([]jsonFix, 0, len(d.Fixes)),
	}
	if d.PredictsJAXError() {
		jd.JAXError.set = true
		if e := d.JAXError; e != nil {
			jd.JAXError.err = &jsonJAXError{Type: e.Type, Message: e.Message}
		}
	}
	for _, rel := range d.Related {
		jd.Related = append(jd.Related, jsonRelated{
			File: r.path(rel.File), Line: rel.Pos.Line, Column: rel.Pos.Column, Message: rel.Message,
		})
	}
	for _, f := range d.Fixes {
		jd.Fixes = append(jd.Fixes, toJSONFix(r, f))
	}
	return jd
}

func toJSONFix(r Report, f analysis.SuggestedFix) jsonFix {
	jf := jsonFix{Title: f.Title, Applicability: f.Applicability.String(), Edits: make([]jsonEdit, 0, len(f.Edits))}
	for _, e := range f.Edits {
		jf.Edits = append(jf.Edits, jsonEdit{
			File: r.path(e.File), Line: e.Pos.Line, Column: e.Pos.Column,
			EndLine: e.Pos.EndLine, EndColumn: e.Pos.EndColumn, NewText: e.NewText,
		})
	}
	return jf
}
