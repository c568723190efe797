package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// This file converts in both directions around Config: generic TOML values
// into Config fields (each error names the key as the user spelled it and
// the shape expected, which is all a user needs to fix the file), and a
// Config into the engine's analysis.Options.

// asStrings accepts a TOML array of strings.
func asStrings(key string, v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be a list of strings, got %s", key, typeName(v))
	}
	out := make([]string, 0, len(list))
	for i, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, fmt.Errorf("%s must be a list of strings; item %d is %s", key, i+1, typeName(item))
		}
		out = append(out, s)
	}
	return out, nil
}

// asStringMap accepts a TOML table whose values are strings.
func asStringMap(key string, v any) (map[string]string, error) {
	table, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s must be a table of strings (e.g. %s = {PAL103 = \"error\"}), got %s",
			key, key, typeName(v))
	}
	out := make(map[string]string, len(table))
	for _, k := range slices.Sorted(maps.Keys(table)) {
		s, ok := table[k].(string)
		if !ok {
			return nil, fmt.Errorf("%s.%s must be a string, got %s", key, k, typeName(table[k]))
		}
		out[k] = s
	}
	return out, nil
}

// asVersionString accepts a string only. A bare TOML number is refused with
// a hint, since 0.10 written as a float reads back as 0.1.
func asVersionString(key string, v any) (string, error) {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x), nil
	case float64, int64:
		return "", fmt.Errorf("%s must be a quoted string such as \"0.7\" (a bare number loses digits: 0.10 reads as 0.1)", key)
	}
	return "", fmt.Errorf("%s must be a string, got %s", key, typeName(v))
}

// asPlatform accepts "auto", "tpu" or "gpu" (any case).
func asPlatform(key string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be a string, got %s", key, typeName(v))
	}
	p, ok := ParsePlatform(s)
	if !ok {
		return "", fmt.Errorf("%s: %q is not one of auto, tpu, gpu", key, s)
	}
	return p, nil
}

// ParsePlatform normalises a platform setting: "auto", "tpu" or "gpu"
// (case and space ignored; "" is auto). Editor settings use it too.
func ParsePlatform(s string) (string, bool) {
	switch p := strings.ToLower(strings.TrimSpace(s)); p {
	case "", "auto":
		return "auto", true
	case "tpu", "gpu":
		return p, true
	}
	return "", false
}

// asChip accepts a TPU chip name JAX knows (lowering.ParseChip), stored in
// its canonical spelling.
func asChip(key string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be a string, got %s", key, typeName(v))
	}
	c, ok := lowering.ParseChip(s)
	if !ok {
		return "", fmt.Errorf("%s: %q is not a TPU chip JAX knows (one of %s)", key, s, strings.Join(lowering.Chips, ", "))
	}
	return c, nil
}

// typeName names a decoded TOML value the way the TOML spec does.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case nil:
		return "nothing"
	}
	return "a date/time"
}

// Options turns settings and a version choice into the engine's Options.
// Front ends then layer their own flags (--select, --show-info) on top.
// A nil or empty Config gives the defaults.
func (c *Config) Options(v VersionChoice) (analysis.Options, error) {
	if c == nil {
		c = &Config{}
	}
	sev, err := c.severities()
	if err != nil {
		return analysis.Options{}, err
	}
	return analysis.Options{
		JAXVersion:            v.Version,
		JAXVersionReason:      v.Reason,
		Select:                slices.Clone(c.Select),
		Ignore:                slices.Clone(c.Ignore),
		Severity:              sev,
		ShardMapWrappers:      slices.Clone(c.ShardMapWrappers),
		EntryPoints:           slices.Clone(c.EntryPoints),
		Platform:              platformOrAuto(c.Platform),
		ProjectPlatform:       v.Pin.Platform,
		ProjectPlatformReason: v.Pin.Reason,
		TPUChip:               c.TPUChip,
	}, nil
}

// platformOrAuto maps the setting to Options.Platform, where "" is auto.
func platformOrAuto(p string) string {
	if p == "auto" {
		return ""
	}
	return p
}

// severities parses the severity table. Codes are upper-cased because
// "pal103" is an obvious spelling of PAL103 and nothing else could be meant.
func (c *Config) severities() (map[string]analysis.Severity, error) {
	if len(c.Severity) == 0 {
		return nil, nil
	}
	out := make(map[string]analysis.Severity, len(c.Severity))
	for _, code := range slices.Sorted(maps.Keys(c.Severity)) {
		name := c.Severity[code]
		s, ok := analysis.ParseSeverity(strings.ToLower(strings.TrimSpace(name)))
		if !ok {
			return nil, fmt.Errorf("%sseverity for %s: %q is not one of error, warning, info, hint",
				c.where(), code, name)
		}
		out[strings.ToUpper(code)] = s
	}
	return out, nil
}

// where prefixes messages with the settings file, when there is one.
func (c *Config) where() string {
	if c.Path == "" {
		return ""
	}
	return c.Path + ": "
}
