package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// promptly fails the test when f has not returned after a few seconds, so
// a build that blocks on a FIFO fails instead of hanging.
func promptly(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return within 10s", what)
	}
}

// resolveAll runs every lookup a check makes for dir and returns the
// problems recorded.
func resolveAll(t *testing.T, dir string) (*Config, VersionChoice, []Problem) {
	var cfg *Config
	var vc VersionChoice
	r := NewResolver()
	promptly(t, "settings lookup", func() {
		r.ExcludesIn(dir)
		cfg, _ = r.For(dir)
		vc, _ = r.JAXVersion(cfg, dir, "")
	})
	return cfg, vc, r.Problems()
}

func problemsHave(t *testing.T, probs []Problem, want string) {
	t.Helper()
	for _, p := range probs {
		if strings.Contains(p.Err.Error(), want) {
			return
		}
	}
	t.Errorf("no problem says %q: %v", want, probs)
}

// TestHostileSettingsFiles (issue 20, defects 3 and 11): settings and
// requirements files that are FIFOs, links to /dev/zero, links out of
// the project or huge are refused at once with their reason; lookups
// return, memory stays small, and nothing outside the project decides.
func TestHostileSettingsFiles(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, map[string]string{"pyproject.toml": "[tool.pallas-ls]\njax-version = \"0.4.1\"\n",
		"req.txt": "jax==0.4.2\n"})
	fifo := func(name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
				t.Skip("no FIFOs:", err)
			}
		}
	}
	link := func(target, name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Skip("no symlinks:", err)
			}
		}
	}
	huge := func(name, head string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			fh, _ := os.Create(filepath.Join(dir, name))
			fh.WriteString(head)
			fh.Truncate(1 << 30) // sparse: a gigabyte of zeros after the head
			fh.Close()
		}
	}
	for name, tc := range map[string]struct {
		build func(t *testing.T, dir string)
		want  string
	}{
		"pyproject FIFO":          {fifo(PyProject), "not a regular file (a FIFO)"},
		"dot file FIFO":           {fifo(DotFile), "not a regular file (a FIFO)"},
		"requirements FIFO":       {fifo("requirements.txt"), "not a regular file (a FIFO)"},
		"pyproject /dev/zero":     {link("/dev/zero", PyProject), "leads to /dev/zero"},
		"dot file /dev/zero":      {link("/dev/zero", DotFile), "leads to /dev/zero"},
		"in-project device":       {linkInside("/dev/zero", DotFile), "not a regular file (a character device)"},
		"pyproject escape":        {link(filepath.Join(outside, "pyproject.toml"), PyProject), "outside the project"},
		"requirements escape":     {link(filepath.Join(outside, "req.txt"), "requirements.txt"), "outside the project"},
		"pyproject huge":          {huge(PyProject, "[tool.pallas-ls]\n"), "larger than 4 MiB"},
		"requirements huge":       {huge("requirements.txt", "jax==0.4.3\n"), "larger than 4 MiB"},
		"include /dev/zero":       {inc("-r /dev/zero\n"), "requirements.txt: include /dev/zero not read: outside the project"},
		"include absolute":        {inc("-r " + filepath.Join(outside, "req.txt") + "\n"), "outside the project"},
		"include up and out":      {incUp(outside), "outside the project"},
		"include up to /":         {inc("-r ../../../../../../../../..\n"), "include / not read: outside the project"},
		"include a directory":     {incDir, "not a regular file (a directory)"},
		"include FIFO":            {incFIFO, "not a regular file (a FIFO)"},
		"constraint /etc/shadow":  {inc("-c /etc/shadow\n"), "include /etc/shadow not read: outside the project"},
		"include missing outside": {inc("-r /nonexistent-pallas/secret.txt\n"), "include /nonexistent-pallas/secret.txt not read: outside the project"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := project(t, nil)
			tc.build(t, dir)
			cfg, vc, probs := resolveAll(t, dir)
			problemsHave(t, probs, tc.want)
			if cfg.JAXVersion != "" || strings.HasPrefix(vc.Version.String(), "0.4") {
				t.Errorf("settings from a refused file were used: %+v, %v", cfg, vc)
			}
		})
	}
}

func inc(text string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) { write(t, dir, map[string]string{"requirements.txt": text}) }
}

// incUp includes the outside file by a relative path that climbs out.
func incUp(outside string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		rel, _ := filepath.Rel(dir, filepath.Join(outside, "req.txt"))
		inc("-r "+rel+"\n")(t, dir)
	}
}

func incDir(t *testing.T, dir string) {
	inc("-r reqs\n")(t, dir)
	os.MkdirAll(filepath.Join(dir, "reqs"), 0o755)
}

// linkInside links name to a device through a device node's stand-in
// inside the project: a FIFO made where the link points, so the real path
// stays inside and only the kind refuses it.
func linkInside(_, name string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		os.MkdirAll(filepath.Join(dir, "dev"), 0o755)
		if err := syscall.Mknod(filepath.Join(dir, "dev", "zero"), syscall.S_IFCHR|0o666, int(devZero())); err != nil {
			t.Skip("cannot make a device node:", err)
		}
		if err := os.Symlink(filepath.Join("dev", "zero"), filepath.Join(dir, name)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
}

// devZero is the device number of /dev/zero (1, 5 on Linux).
func devZero() uint64 {
	var st syscall.Stat_t
	if syscall.Stat("/dev/zero", &st) != nil {
		return 1<<8 | 5
	}
	return uint64(st.Rdev)
}

func incFIFO(t *testing.T, dir string) {
	inc("-r reqs/more.txt\n")(t, dir)
	os.MkdirAll(filepath.Join(dir, "reqs"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "reqs", "more.txt"), 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
}

// TestIncludesInsideTheProjectStillCount: an include that climbs within
// the repository is followed as before.
func TestIncludesInsideTheProjectStillCount(t *testing.T) {
	root := project(t, map[string]string{
		"requirements/base.txt":       "jax==0.4.33\n",
		"services/a/requirements.txt": "-r ../../requirements/base.txt\n",
	})
	r := NewResolver()
	vc, _ := r.JAXVersion(&Config{}, filepath.Join(root, "services", "a"), "")
	if vc.Version.String() != "0.4.33" {
		t.Errorf("version %v (%s), want the pin from the included file", vc.Version, vc.Reason)
	}
	if probs := r.Problems(); len(probs) != 0 {
		t.Errorf("problems: %v", probs)
	}
}
