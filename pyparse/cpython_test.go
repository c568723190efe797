package pyparse

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// cpythonScript prints the interpreter's version, then for each path read
// from stdin (one a line) 1 if ast.parse accepts the file, else 0.
const cpythonScript = `
import ast, sys, warnings
warnings.simplefilter("ignore")
print("%d.%d" % sys.version_info[:2], flush=True)
for line in sys.stdin:
    path = line[:-1]
    try:
        with open(path, "rb") as f:
            ast.parse(f.read())
        print(1)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        print(0)
`

// cpython returns the interpreter the tests compare against:
// $PALLAS_PYTHON, else python3 on PATH, else "" (the comparison is skipped).
func cpython() string {
	if p := os.Getenv("PALLAS_PYTHON"); p != "" {
		return p
	}
	p, _ := exec.LookPath("python3")
	return p
}

// cpythonVerdicts asks python which of paths it parses (in one process).
func cpythonVerdicts(t *testing.T, python string, paths []string) (version string, ok []bool) {
	t.Helper()
	var in bytes.Buffer
	for _, p := range paths {
		if strings.ContainsAny(p, "\n\r") {
			t.Fatalf("path with a line break: %q", p)
		}
		in.WriteString(p + "\n")
	}
	cmd := exec.Command(python, "-c", cpythonScript)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", python, err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if version == "" {
			version = sc.Text()
			continue
		}
		ok = append(ok, sc.Text() == "1")
	}
	if len(ok) != len(paths) {
		t.Fatalf("%s gave %d verdicts for %d files", python, len(ok), len(paths))
	}
	return version, ok
}

// versionAtLeast compares "3.12" style versions.
func versionAtLeast(have, want string) bool {
	var hm, hn, wm, wn int
	fmt.Sscanf(have, "%d.%d", &hm, &hn)
	fmt.Sscanf(want, "%d.%d", &wm, &wn)
	return hm > wm || hm == wm && hn >= wn
}
