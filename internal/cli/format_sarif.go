package cli

import (
	"cmp"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
)

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	sarifRoot    = "%SRCROOT%"
	toolInfoURI  = "https://github.com/pallas-ls/pallas-ls"
)

// WriteSARIF writes a SARIF 2.1.0 log with one run: a rule object per code
// used, one result per diagnostic with its related locations and fixes.
// Columns are declared as code points (columnKind), matching the printed
// positions; SARIF's default would be UTF-16 units. Paths under the working
// directory become URIs relative to %SRCROOT%, which is what code-scanning
// services need to match results to files in the repository.
func WriteSARIF(w io.Writer, r Report) error {
	rules, index := sarifUsedRules(r)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "pallas-ls", Version: r.ToolVersion, InformationURI: toolInfoURI,
			Rules: make([]sarifRule, 0, len(rules)),
		}},
		OriginalURIBaseIDs: sarifBaseIDs(r.WorkDir),
		ColumnKind:         "unicodeCodePoints",
		Results:            make([]sarifResult, 0, len(r.Diagnostics)),
	}
	for _, ri := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, toSARIFRule(ri))
	}
	for _, d := range r.Diagnostics {
		run.Results = append(run.Results, toSARIFResult(r, d, index[d.Code]))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func toSARIFRule(ri RuleInfo) sarifRule {
	rule := sarifRule{
		ID: ri.Code, Name: ri.Name,
		ShortDescription:     sarifText{Text: cmp.Or(ri.Title, ri.Code)},
		HelpURI:              ri.HelpURI,
		DefaultConfiguration: sarifConfig{Level: sarifLevel(ri.DefaultSeverity)},
	}
	if ri.Description != "" {
		rule.FullDescription = &sarifText{Text: ri.Description}
	}
	return rule
}

func toSARIFResult(r Report, d analysis.Diagnostic, ruleIndex int) sarifResult {
	res := sarifResult{
		RuleID: d.Code, RuleIndex: ruleIndex, Level: sarifLevel(d.Severity),
		Message:   sarifText{Text: d.Message},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical(r, d.File, d.Pos)}},
	}
	for i, rel := range d.Related {
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
			ID: &i, PhysicalLocation: sarifPhysical(r, rel.File, rel.Pos), Message: &sarifText{Text: rel.Message},
		})
	}
	if d.PredictsJAXError() {
		res.Properties = &sarifResultProps{}
		if e := d.JAXError; e != nil {
			res.Properties.JAXError = &jsonJAXError{Type: e.Type, Message: e.Message}
		}
	}
	for _, f := range d.Fixes {
		if len(f.Edits) > 0 { // SARIF requires at least one artifactChange
			res.Fixes = append(res.Fixes, toSARIFFix(r, f))
		}
	}
	return res
}

// toSARIFFix groups a fix's edits by file, as SARIF's artifactChanges do.
func toSARIFFix(r Report, f analysis.SuggestedFix) sarifFix {
	fix := sarifFix{
		Description: sarifText{Text: f.Title},
		Properties:  map[string]string{"applicability": f.Applicability.String()},
	}
	for _, file := range fixFileOrder(f.Edits) {
		change := sarifChange{ArtifactLocation: sarifArtifact(r.path(file))}
		for _, e := range f.Edits {
			if e.File == file {
				change.Replacements = append(change.Replacements, sarifReplacement{
					DeletedRegion:   sarifRegionOf(e.Pos),
					InsertedContent: sarifText{Text: e.NewText},
				})
			}
		}
		fix.ArtifactChanges = append(fix.ArtifactChanges, change)
	}
	return fix
}

func sarifPhysical(r Report, abs string, p analysis.Position) sarifPhysicalLocation {
	region := sarifRegionOf(p)
	return sarifPhysicalLocation{ArtifactLocation: sarifArtifact(r.path(abs)), Region: &region}
}

// sarifRegionOf converts a printed position. SARIF's endColumn, like ours,
// is the column just past the range, so no adjustment is needed.
func sarifRegionOf(p analysis.Position) sarifRegion {
	return sarifRegion{StartLine: p.Line, StartColumn: p.Column, EndLine: p.EndLine, EndColumn: p.EndColumn}
}

// sarifLevel maps severities onto SARIF's three levels; info and hint are
// both advice.
func sarifLevel(s analysis.Severity) string {
	switch s {
	case analysis.SeverityError:
		return "error"
	case analysis.SeverityWarning:
		return "warning"
	}
	return "note"
}

// sarifArtifact locates a file by its display path: relative paths resolve
// against %SRCROOT%, absolute ones (files outside the working directory)
// become file URIs of their own.
func sarifArtifact(display string) sarifArtifactLocation {
	if filepath.IsAbs(display) {
		return sarifArtifactLocation{URI: sarifFileURI(display)}
	}
	return sarifArtifactLocation{URI: sarifEscapePath(filepath.ToSlash(display), false), URIBaseID: sarifRoot}
}

// sarifBaseIDs states where %SRCROOT% is. A base URI must end in a slash, or
// resolving "a.py" against it would replace its last segment.
func sarifBaseIDs(workDir string) map[string]sarifArtifactLocation {
	if workDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil // relative URIs stay resolvable by the consumer's own root
		}
		workDir = wd
	}
	uri := sarifFileURI(workDir)
	if !strings.HasSuffix(uri, "/") {
		uri += "/"
	}
	return map[string]sarifArtifactLocation{sarifRoot: {URI: uri}}
}

// sarifFileURI turns an absolute path into file:///..., with a Windows
// drive letter as its first segment (file:///C:/x).
func sarifFileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return "file://" + sarifEscapePath(p, true)
}

// sarifEscapePath percent-encodes every byte outside RFC 3986's unreserved
// set, except the slashes separating segments. A colon is kept only in an
// absolute path (a drive letter): in a relative reference, "a:b.py" would
// parse as a URI with scheme "a".
func sarifEscapePath(p string, keepColon bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if sarifUnreserved(c) || c == '/' || (keepColon && c == ':') {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func sarifUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// The subset of the SARIF 2.1.0 object model this tool writes. Field order
// is output order; optional members are omitted when empty.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name,omitempty"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      *sarifText  `json:"fullDescription,omitempty"`
	HelpURI              string      `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
	// Properties carries jax_error (spec §2), as the JSON format does.
	Properties *sarifResultProps `json:"properties,omitempty"`
}

type sarifResultProps struct {
	JAXError *jsonJAXError `json:"jax_error"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"` // pointer: 0 is a valid id
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifText         `json:"description"`
	ArtifactChanges []sarifChange     `json:"artifactChanges"`
	Properties      map[string]string `json:"properties,omitempty"`
}

type sarifChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}
