package config

import (
	"regexp"
	"strings"

	"github.com/pallas-ls/pallas-ls/lowering"
)

// A project's jax requirement tells us which JAX it runs on (spec.md §5).
// We read the version the project is guaranteed to have: the exact pin, or
// else the lower bound. Anything we cannot read is skipped, never an error,
// because dependency files are the project's business, not ours.

var (
	// reqHead splits a PEP 508 requirement into name, extras and the rest.
	reqHead = regexp.MustCompile(`^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$`)
	// specifier is one version clause such as ">=0.4.30".
	specifier = regexp.MustCompile(`(===|==|~=|>=|<=|!=|>|<)\s*([^\s,;)]+)`)
	// nameSep collapses separators for PEP 503 name normalisation, so that
	// "JAX" matches but "jaxlib", "jax-metal" and "jaxtyping" do not.
	nameSep = regexp.MustCompile(`[-_.]+`)
)

// boundOps are the specifier operators that fix a version the project is
// sure to have, best first: an exact pin beats a compatible-release clause,
// which beats a plain lower bound.
var boundOps = []string{"===", "==", "~=", ">=", ">"}

// isJAX reports whether a distribution name is jax itself.
func isJAX(name string) bool {
	return nameSep.ReplaceAllString(strings.ToLower(name), "-") == "jax"
}

// requirementVersion reads a PEP 508 requirement ("jax[tpu]==0.4.35",
// "jax>=0.4.30,<0.5; python_version>'3.9'") and returns the version it
// guarantees when it names jax.
func requirementVersion(req string) (lowering.Version, bool) {
	req, _, _ = strings.Cut(req, ";") // environment markers
	m := reqHead.FindStringSubmatch(req)
	if m == nil || !isJAX(m[1]) {
		return lowering.Version{}, false
	}
	rest := strings.TrimSpace(m[3])
	if strings.HasPrefix(rest, "@") { // direct URL: no version to read
		return lowering.Version{}, false
	}
	if i := strings.Index(rest, " -"); i >= 0 { // pip options such as --hash
		rest = rest[:i]
	}
	return lowerBound(rest)
}

// lowerBound picks the most telling clause of a specifier set.
func lowerBound(specs string) (lowering.Version, bool) {
	clauses := specifier.FindAllStringSubmatch(specs, -1)
	for _, op := range boundOps {
		for _, c := range clauses {
			if c[1] != op {
				continue
			}
			if v, err := lowering.ParseVersion(strings.TrimSuffix(c[2], ".*")); err == nil {
				return v, true
			}
		}
	}
	return lowering.Version{}, false
}

// poetryVersion reads a Poetry constraint: "^0.4.30", "~0.4.30", "0.4.30"
// (exact), ">=0.4.30,<0.5", or alternatives joined by "||" (the first
// alternative is used, as it is the oldest a maintainer listed).
func poetryVersion(constraint string) (lowering.Version, bool) {
	c := strings.TrimSpace(constraint)
	c, _, _ = strings.Cut(c, "||")
	c = strings.TrimSpace(c)
	switch {
	case c == "" || c == "*":
		return lowering.Version{}, false
	case strings.HasPrefix(c, "^"), strings.HasPrefix(c, "~") && !strings.HasPrefix(c, "~="):
		c = strings.TrimLeft(c, "^~ ")
		c = strings.TrimSuffix(c, ".*")
	case c[0] >= '0' && c[0] <= '9':
		c = strings.TrimSuffix(c, ".*")
	default:
		return lowerBound(c)
	}
	v, err := lowering.ParseVersion(c)
	return v, err == nil
}

// poetryValue reads the value of a `jax = ...` entry in a Poetry
// dependency table: a constraint string, a table with "version", or an
// array of such tables (one per platform or Python).
func poetryValue(v any) (lowering.Version, string, bool) {
	switch x := v.(type) {
	case string:
		ver, ok := poetryVersion(x)
		return ver, x, ok
	case map[string]any:
		s, _ := x["version"].(string)
		ver, ok := poetryVersion(s)
		return ver, s, ok
	case []any:
		for _, item := range x {
			if ver, s, ok := poetryValue(item); ok {
				return ver, s, true
			}
		}
	}
	return lowering.Version{}, "", false
}

// requirementLines splits a requirements file into logical lines: joined
// continuations, comments and blank lines removed.
func requirementLines(data string) []string {
	data = strings.ReplaceAll(data, "\r\n", "\n")
	data = strings.ReplaceAll(data, "\\\n", "")
	var out []string
	for _, line := range strings.Split(data, "\n") {
		if i := strings.Index(line, "#"); i == 0 || (i > 0 && isSpace(line[i-1])) {
			line = line[:i]
		}
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// includeTarget returns the file named by a "-r file" / "-c file" line.
func includeTarget(line string) (string, bool) {
	for _, opt := range []string{"--requirement", "--constraint", "-r", "-c"} {
		if rest, ok := strings.CutPrefix(line, opt); ok {
			rest = strings.TrimLeft(rest, " \t=")
			if rest != "" {
				return rest, true
			}
		}
	}
	return "", false
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' }
