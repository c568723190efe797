package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// kernel is a file with one PAL301 under the default JAX version (0.11)
// and none under 0.4: which version a run used shows in its findings.
const kernel = `from jax.experimental.pallas import tpu as pltpu

def kernel(sem):
    pltpu.semaphore_signal(sem, 1)
`

// finding is the text of kernel's finding in check's output.
const finding = "k.py:4:5: error PAL301"

// hostileTree is one fault to inject into a small project.
type hostileTree struct {
	name  string
	build func(t *testing.T, proj, outside string)
	// want, when set, must appear on stderr (the refusal, named).
	want string
	// finding says whether k.py's finding must be reported: whatever a
	// hostile file says, it must not silence the check or decide it from
	// outside the tree.
	finding bool
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
}

// sparse makes a file of size bytes that starts with head and costs no
// disk space.
func sparse(t *testing.T, path, head string, size int64) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(head)
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

func fifo(name string) func(t *testing.T, proj, _ string) {
	return func(t *testing.T, proj, _ string) { mkfifo(t, filepath.Join(proj, name)) }
}

func devZero(name string) func(t *testing.T, proj, _ string) {
	return func(t *testing.T, proj, _ string) { symlink(t, "/dev/zero", filepath.Join(proj, name)) }
}

func huge(name, head string) func(t *testing.T, proj, _ string) {
	return func(t *testing.T, proj, _ string) { sparse(t, filepath.Join(proj, name), head, 256<<20) }
}

func file(name, content string) func(t *testing.T, proj, _ string) {
	return func(t *testing.T, proj, _ string) { writeFiles(t, proj, map[string]string{name: content}) }
}

// outsideLink links name in the project to a file outside it that, if
// read, would change the result: it silences PAL301 or pins JAX 0.4.
func outsideLink(name, content string) func(t *testing.T, proj, outside string) {
	return func(t *testing.T, proj, outside string) {
		writeFiles(t, outside, map[string]string{name: content})
		symlink(t, filepath.Join(outside, name), filepath.Join(proj, name))
	}
}

func manyKeys(table string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s]\n", table)
	for i := range n {
		fmt.Fprintf(&b, "k%d = %d\n", i, i)
	}
	return b.String()
}

// hostileTrees are the faults of issue 20 that a cloned repository can
// carry, each with what a run must still do.
var hostileTrees = []hostileTree{
	{"gitignore FIFO", fifo(".gitignore"), ".gitignore: cannot read ignore file: not a regular file (a FIFO)", true},
	{"git exclude FIFO", fifo(".git/info/exclude"), "not a regular file (a FIFO)", true},
	{"pyproject FIFO", fifo("pyproject.toml"), "pyproject.toml: not read: not a regular file (a FIFO)", true},
	{"dot file FIFO", fifo(".pallas-ls.toml"), ".pallas-ls.toml: not read: not a regular file (a FIFO)", true},
	{"requirements FIFO", fifo("requirements.txt"), "requirements.txt: not read: not a regular file (a FIFO)", true},
	{"include FIFO", func(t *testing.T, proj, o string) {
		file("requirements.txt", "-r reqs/base.txt\n")(t, proj, o)
		mkfifo(t, filepath.Join(proj, "reqs", "base.txt"))
	}, "reqs/base.txt not read: not a regular file (a FIFO)", true},
	{"python FIFO", fifo("pkg/fifo.py"), "", true},
	{"gitignore /dev/zero", devZero(".gitignore"), "it leads to /dev/zero", true},
	{"pyproject /dev/zero", devZero("pyproject.toml"), "it leads to /dev/zero", true},
	{"requirements /dev/zero", devZero("requirements.txt"), "it leads to /dev/zero", true},
	{"include /dev/zero", file("requirements.txt", "-r /dev/zero\n"), "include /dev/zero not read", true},
	{"python /dev/zero", devZero("pkg/zero.py"), "", true},
	{"huge pyproject", huge("pyproject.toml", "[tool.pallas-ls]\n"), "larger than 4 MiB", true},
	{"huge requirements", huge("requirements.txt", "jax==0.4.1\n"), "larger than 4 MiB", true},
	{"huge gitignore", huge(".gitignore", "*.py\n"), "larger than 4 MiB", true},
	{"huge python", huge("pkg/huge.py", "import jax\n"), "larger than 20 MiB; skipped", true},
	{"deep TOML", file("pyproject.toml", "[tool.pallas-ls]\nexclude = "+strings.Repeat("[", 20000)+strings.Repeat("]", 20000)+"\n"), "invalid TOML", true},
	{"deep directories", func(t *testing.T, proj, _ string) {
		deep := filepath.Join(proj, strings.Repeat("d/", 300))
		writeFiles(t, deep, map[string]string{"x.py": "x = 1\n"})
	}, "", true},
	{"100k keys elsewhere", file("pyproject.toml", "[tool.pallas-ls]\njax-version = \"0.11\"\n"+manyKeys("tool.other", 100000)), "", true},
	{"100k keys ours", file("pyproject.toml", manyKeys("tool.pallas-ls.severity", 100000)), "more than 5000 keys", true},
	{"pyproject escape", outsideLink("pyproject.toml", "[tool.pallas-ls]\nignore = [\"PAL3*\"]\n"), "outside the project", true},
	{"dot file escape", outsideLink(".pallas-ls.toml", "jax-version = \"0.4.1\"\n"), "outside the project", true},
	{"requirements escape", outsideLink("requirements.txt", "jax==0.4.1\n"), "outside the project", true},
	{"include escape", func(t *testing.T, proj, outside string) {
		writeFiles(t, outside, map[string]string{"req.txt": "jax==0.4.1\n"})
		rel, _ := filepath.Rel(proj, filepath.Join(outside, "req.txt"))
		file("requirements.txt", "-r "+rel+"\n-r /etc/shadow\n-r ../../..\n")(t, proj, outside)
	}, "outside the project", true},
	{"gitignore escape", outsideLink(".gitignore", "*.py\n"), "outside the project", true},
}

// newProject makes a repository with k.py and builds the fault into it;
// outside is a directory beside it that no run may touch.
func newProject(t *testing.T, h hostileTree) (proj, outside string) {
	t.Helper()
	proj, outside = t.TempDir(), t.TempDir()
	writeFiles(t, proj, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "k.py": kernel})
	h.build(t, proj, outside)
	return proj, outside
}

// TestHostileTreesCheck: on every hostile tree `check` ends by itself
// within the bounds, names what it refused, still reports k.py's finding
// (nothing from outside decided the settings or the JAX version), and
// writes nothing, inside the tree or out.
func TestHostileTreesCheck(t *testing.T) {
	for _, h := range hostileTrees {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			proj, outside := newProject(t, h)
			before, beforeOut := snap(t, proj), snap(t, outside)
			r := run(t, proj, nil, "check", "--no-cache", ".")
			bounded(t, r, 0, 1, 2)
			if h.want != "" && !strings.Contains(r.stderr, h.want) {
				t.Errorf("stderr lacks %q:\n%s", h.want, tail(r.stderr))
			}
			if h.finding && !strings.Contains(r.stdout, finding) {
				t.Errorf("k.py's finding is missing:\nstdout:\n%s\nstderr:\n%s", r.stdout, tail(r.stderr))
			}
			before.same(t, "the checked tree", snap(t, proj))
			beforeOut.same(t, "outside the tree", snap(t, outside))
		})
	}
}

// TestHostileTreesServe: the language server indexes every hostile tree
// within the bounds, publishes k.py's finding when it is opened, and
// shuts down cleanly; it writes nothing.
func TestHostileTreesServe(t *testing.T) {
	for _, h := range hostileTrees {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			proj, outside := newProject(t, h)
			before, beforeOut := snap(t, proj), snap(t, outside)
			s := newServe(t, proj)
			s.initialize(proj)
			k := proj + "/k.py"
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
				"uri": fileURI(k), "languageId": "python", "version": 1, "text": kernel}})
			if !s.diagnostics(k, "PAL301", runBound) {
				t.Errorf("no PAL301 published for k.py\nstderr:\n%s", tail(s.c.stderr.String()))
			}
			r := s.shutdown()
			bounded(t, r, 0)
			if h.want != "" && !strings.Contains(r.stderr, h.want) {
				t.Errorf("server log lacks %q:\n%s", h.want, tail(r.stderr))
			}
			before.same(t, "the workspace", snap(t, proj))
			beforeOut.same(t, "outside the workspace", snap(t, outside))
		})
	}
}

// TestSpecialFilesNamed: a FIFO or device named on the command line, as
// a file to check or as --config, is refused at once (exit 2, its kind
// named) instead of blocking until killed.
func TestSpecialFilesNamed(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{"k.py": kernel})
	mkfifo(t, filepath.Join(proj, "fifo.py"))
	mkfifo(t, filepath.Join(proj, "fifo.toml"))
	for _, args := range [][]string{
		{"check", "--no-cache", "fifo.py", "k.py"},
		{"check", "--no-cache", "/dev/zero"},
		{"check", "--no-cache", "--config", "fifo.toml", "."},
		{"check", "--no-cache", "--config", "/dev/zero", "."},
	} {
		r := run(t, proj, nil, args...)
		bounded(t, r, 2)
		if !strings.Contains(r.stderr, "not a regular file") {
			t.Errorf("%q: stderr %q does not name the refusal", args, r.stderr)
		}
	}
}
