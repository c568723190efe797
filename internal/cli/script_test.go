package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestScripts runs every testdata/scripts/*.txtar (format described in
// script_parse_test.go) through run, in process: the real command-line
// front end, minus only the process's environment.
func TestScripts(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "scripts", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runScript(t, p)
		})
	}
}

// stepResult is what one step did.
type stepResult struct {
	exit           int
	stdout, stderr string
	files          map[int][]byte // file: section index -> actual content
}

func runScript(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := parseScript(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	dir := scriptDir(t, s.files)
	var results []stepResult
	for _, st := range s.steps {
		res := runStep(t, dir, s, st)
		results = append(results, res)
		if !formatUpdatingGolden() {
			checkStep(t, s, st, res)
		}
	}
	if formatUpdatingGolden() {
		if err := os.WriteFile(path, s.updated(results), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// scriptDir writes the project into a fresh directory. Symlinks in the
// temporary directory's path are resolved, so that $WORK replaces the one
// spelling the commands see.
func scriptDir(t *testing.T, files []txtar.File) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runStep(t *testing.T, dir string, s *script, st *scriptStep) stepResult {
	var stdout, stderr bytes.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		workDir: dir, getenv: func(k string) string {
			if k == "PALLAS_LS_CACHE_DIR" {
				return filepath.Join(dir, ".test-cache")
			}
			return ""
		},
		version: buildVersion{module: "v0.0.0-test", goVersion: "go-test"},
	}
	res := stepResult{files: map[int][]byte{}}
	res.exit = run(context.Background(), e, st.args)
	res.stdout = strings.ReplaceAll(stdout.String(), dir, "$WORK")
	res.stderr = strings.ReplaceAll(stderr.String(), dir, "$WORK")
	for _, i := range st.want {
		name, _, _ := s.wantFile(i)
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("args %q: %v", st.args, err)
		}
		res.files[i] = data
	}
	return res
}

func checkStep(t *testing.T, s *script, st *scriptStep, res stepResult) {
	t.Helper()
	if want, err := s.expectedExit(st); err != nil {
		t.Errorf("args %q: bad exit section: %v", st.args, err)
	} else if res.exit != want {
		t.Errorf("args %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", st.args, res.exit, want, res.stdout, res.stderr)
	}
	if want := s.expectedStdout(st); res.stdout != want {
		t.Errorf("args %q: stdout differs (go test -run TestScripts -update rewrites it)\n--- got:\n%s--- want:\n%s", st.args, res.stdout, want)
	}
	checkStderr(t, st, res.stderr)
	for i, got := range res.files {
		name, want, err := s.wantFile(i)
		if err != nil {
			t.Errorf("args %q: section %s: %v", st.args, s.ar.Files[i].Name, err)
		} else if !bytes.Equal(got, want) {
			t.Errorf("args %q: %s:\n--- got:\n%q\n--- want:\n%q", st.args, name, got, want)
		}
	}
}

func checkStderr(t *testing.T, st *scriptStep, got string) {
	t.Helper()
	if !st.hasErr && got != "" {
		t.Errorf("args %q: unexpected stderr:\n%s", st.args, got)
	}
	for _, line := range st.stderr {
		if !strings.Contains(got, line) {
			t.Errorf("args %q: stderr lacks %q; stderr:\n%s", st.args, line, got)
		}
	}
}

// updated rebuilds the archive with the actual exit codes, stdout and
// files, each step's sections in the canonical order args, exit, stdout,
// stderr, file:.
func (s *script) updated(results []stepResult) []byte {
	ar := &txtar.Archive{Comment: s.ar.Comment}
	ar.Files = append(ar.Files, s.ar.Files[:s.steps[0].argsIdx]...)
	for k, st := range s.steps {
		res := results[k]
		ar.Files = append(ar.Files, s.ar.Files[st.argsIdx])
		if st.exitIdx >= 0 || res.exit != 0 {
			ar.Files = append(ar.Files, txtar.File{Name: "exit", Data: []byte(strconv.Itoa(res.exit) + "\n")})
		}
		if st.outIdx >= 0 || res.stdout != "" {
			ar.Files = append(ar.Files, txtar.File{Name: "stdout", Data: []byte(res.stdout)})
		}
		ar.Files = append(ar.Files, s.stepTail(st, res)...)
	}
	return txtar.Format(ar)
}

// stepTail is a step's stderr and file: sections, files updated.
func (s *script) stepTail(st *scriptStep, res stepResult) []txtar.File {
	end := len(s.ar.Files)
	for _, other := range s.steps {
		if other.argsIdx > st.argsIdx && other.argsIdx < end {
			end = other.argsIdx
		}
	}
	var out []txtar.File
	for i := st.argsIdx + 1; i < end; i++ {
		f := s.ar.Files[i]
		switch {
		case f.Name == "stderr":
			out = append(out, f)
		case isFileWant(f.Name):
			out = append(out, s.wantSection(i, res.files[i]))
		}
	}
	return out
}
