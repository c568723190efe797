package main

import (
	"regexp"
	"strings"
)

// MyST Markdown notebooks (JAX's docs: docs/pallas/tpu/distributed.md)
// hold their examples in ```{code-cell} fences. notebookPython turns one
// into the Python file jupytext would run, line for line: every line
// outside a code cell, the fences and IPython magics become blank, so a
// finding's line is the Markdown line. ok is false when there is no
// code cell.
var fenceRE = regexp.MustCompile("^```+\\s*\\{code-cell\\}")

var optionRE = regexp.MustCompile(`^:[A-Za-z_-]+:`)

func notebookPython(md []byte) (py []byte, ok bool) {
	lines := strings.Split(string(md), "\n")
	in, head, yaml := false, false, false
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		t := strings.TrimSpace(l)
		switch {
		case !in && fenceRE.MatchString(t):
			in, ok, head = true, true, true
		case in && strings.HasPrefix(t, "```"):
			in, yaml = false, false
		case in && yaml:
			// the cell's YAML options, up to the closing ---
			yaml = t != "---"
		case in && head && t == "---":
			yaml = true
		case in && head && optionRE.MatchString(t):
			// a cell option line (:tags: [...])
		case in && (strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!")):
			// IPython magics: not Python
			head = false
		case in:
			head = false
			b.WriteString(l)
		}
	}
	return []byte(b.String()), ok
}

// notebookName is the Python file a notebook becomes in the scratch copy.
func notebookName(rel string) string { return strings.TrimSuffix(rel, ".md") + "_md.py" }
