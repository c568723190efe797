package config

import (
	"fmt"
	"path/filepath"
	"sort"
)

// File names this package reads.
const (
	// DotFile holds pallas-ls settings as top-level keys; it beats a
	// pyproject.toml in the same directory.
	DotFile = ".pallas-ls.toml"
	// PyProject holds settings in its [tool.pallas-ls] table.
	PyProject = "pyproject.toml"
	// toolTable is the key under [tool] that pallas-ls owns.
	toolTable = "pallas-ls"
)

// Config is one settings file after validation (spec.md §6). Values are kept
// raw; Options and DetectJAXVersion interpret them, so that a front end can
// still show the user what they wrote.
type Config struct {
	Path             string            // file the settings came from ("" = none found)
	JAXVersion       string            // raw jax-version
	Select, Ignore   []string          // code globs
	Severity         map[string]string // code -> "error"|"warning"|"info"|"hint"
	Exclude          []string          // gitignore-syntax globs, relative to Dir()
	ShardMapWrappers []string          // qualified names
	EntryPoints      []string          // qualified names
	Platform         string            // "auto", "tpu" or "gpu" ("" = auto)
	TPUChip          string            // canonical chip name (lowering.Chips), "" = none
	// UnknownKeys are keys this version does not know. They are not fatal
	// (a newer pallas-ls may know them); the CLI prints them as warnings.
	UnknownKeys []string
}

// Dir is the directory Exclude globs are relative to; "" for an empty Config.
func (c *Config) Dir() string {
	if c == nil || c.Path == "" {
		return ""
	}
	return filepath.Dir(c.Path)
}

// field describes one accepted key: its kebab-case name, optional
// snake_case alias, and how to store a decoded value into a Config.
type field struct {
	name, alias string
	set         func(c *Config, key string, v any) error
}

var fields = []field{
	{"jax-version", "jax_version", func(c *Config, k string, v any) (err error) {
		c.JAXVersion, err = asVersionString(k, v)
		return err
	}},
	{"select", "", func(c *Config, k string, v any) (err error) { c.Select, err = asStrings(k, v); return err }},
	{"ignore", "", func(c *Config, k string, v any) (err error) { c.Ignore, err = asStrings(k, v); return err }},
	{"severity", "", func(c *Config, k string, v any) (err error) { c.Severity, err = asStringMap(k, v); return err }},
	{"exclude", "", func(c *Config, k string, v any) (err error) { c.Exclude, err = asStrings(k, v); return err }},
	{"shard-map-wrappers", "shard_map_wrappers", func(c *Config, k string, v any) (err error) {
		c.ShardMapWrappers, err = asStrings(k, v)
		return err
	}},
	{"entry-points", "entry_points", func(c *Config, k string, v any) (err error) {
		c.EntryPoints, err = asStrings(k, v)
		return err
	}},
	{"platform", "", func(c *Config, k string, v any) (err error) { c.Platform, err = asPlatform(k, v); return err }},
	{"tpu-chip", "tpu_chip", func(c *Config, k string, v any) (err error) { c.TPUChip, err = asChip(k, v); return err }},
}

// KnownKeys lists the accepted keys in kebab-case, sorted (for messages
// such as "unknown key foo; known keys: ...").
func KnownKeys() []string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.name
	}
	sort.Strings(keys)
	return keys
}

// Load parses one settings file. A pyproject.toml supplies its
// [tool.pallas-ls] table (none: an empty Config with Path set); any other
// file (.pallas-ls.toml, or a --config FILE) supplies its top-level keys,
// or its [tool.pallas-ls] table when it has one and no top-level pallas-ls
// keys. Syntax errors name file:line:column. Load is for a file the user
// named: it is read wherever it is, if it is a regular file of at most
// safefs.MaxConfigSize; files found by looking around a checked file are
// read with loadFound, which also keeps to their project.
func Load(path string) (*Config, error) {
	data, err := readNamed(path)
	if err != nil {
		return nil, err
	}
	return loadData(path, data)
}

// loadFound is Load for a settings file found near a checked file.
func loadFound(path string) (*Config, error) {
	data, err := readFound(path)
	if err != nil {
		return nil, err
	}
	return loadData(path, data)
}

func loadData(path string, data []byte) (*Config, error) {
	doc, err := decodeCached(path, data, filepath.Base(path) == PyProject)
	if err != nil {
		return nil, err
	}
	table, ok, err := toolSection(doc)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	case !ok && filepath.Base(path) == PyProject:
		return &Config{Path: path}, nil
	case !ok || (filepath.Base(path) != PyProject && hasKnownKey(doc)):
		table = doc
	}
	c, err := fromTable(table)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Path = path
	return c, nil
}

// validate reports the errors Options and DetectJAXVersion would meet
// later, so that a settings file is usable or not as a whole.
func (c *Config) validate() error {
	if _, err := c.severities(); err != nil {
		return err
	}
	if c.JAXVersion != "" {
		if _, err := configVersion(c); err != nil {
			return err
		}
	}
	return nil
}

func hasKnownKey(table map[string]any) bool {
	for _, f := range fields {
		if _, ok := table[f.name]; ok {
			return true
		}
		if _, ok := table[f.alias]; ok && f.alias != "" {
			return true
		}
	}
	return false
}

// fromTable validates the pallas-ls table. Both spellings of one key are an
// error because silently preferring one would hide a typo.
func fromTable(table map[string]any) (*Config, error) {
	c := &Config{}
	seen := map[string]bool{}
	for _, f := range fields {
		for _, key := range []string{f.name, f.alias} {
			v, ok := table[key]
			if key == "" || !ok {
				continue
			}
			seen[key] = true
			if seen[f.name] && seen[f.alias] {
				return nil, fmt.Errorf("both %s and %s are set; keep one", f.name, f.alias)
			}
			if err := f.set(c, key, v); err != nil {
				return nil, err
			}
		}
	}
	for key := range table {
		if !seen[key] {
			c.UnknownKeys = append(c.UnknownKeys, key)
		}
	}
	sort.Strings(c.UnknownKeys)
	return c, nil
}

// toolSection returns [tool.pallas-ls] from a pyproject document and
// whether it exists.
func toolSection(doc map[string]any) (map[string]any, bool, error) {
	tool, ok := doc["tool"].(map[string]any)
	if !ok {
		return nil, false, nil
	}
	v, ok := tool[toolTable]
	if !ok {
		return nil, false, nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("tool.%s must be a table", toolTable)
	}
	return t, true, nil
}
