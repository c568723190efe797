package analysis

import "testing"

func TestRelevantPrunesIslands(t *testing.T) {
	files := []SourceFile{
		{Path: "/p/app/kernels.py", Src: []byte("import jax\nfrom . import flags\n")},
		{Path: "/p/app/flags.py", Src: []byte("RING = True\n")},
		{Path: "/p/app/__init__.py", Src: []byte("")},
		{Path: "/p/main.py", Src: []byte("from app.kernels import run\n")},
		{Path: "/p/tools/strings.py", Src: []byte("def shout(s):\n    return s\n")},
		{Path: "/p/tools/cli.py", Src: []byte("from tools.strings import shout\n")},
		{Path: "/p/notes.py", Src: []byte("x = 1  # pallas-ls: ignore[PAL101]\n")},
	}
	want := []bool{true, true, true, true, false, false, true}
	got := relevant(files)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: relevant=%v, want %v", files[i].Path, got[i], want[i])
		}
	}
}
