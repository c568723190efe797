package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func fileAt(root, name string) File {
	return File{Path: filepath.Join(root, name), Display: name}
}

func TestReadAllKeepsOrderAndReportsErrors(t *testing.T) {
	root := t.TempDir()
	var files []File
	for i := range 50 {
		name := fmt.Sprintf("f%02d.py", i)
		writeTree(t, root, map[string]string{name: name})
		files = append(files, fileAt(root, name))
	}
	files = append(files, fileAt(root, "vanished.py"), fileAt(root, "f00.py"))
	got := ReadAll(context.Background(), files)
	if len(got) != len(files) {
		t.Fatalf("%d results for %d files", len(got), len(files))
	}
	for i, l := range got[:50] {
		if l.Err != nil || string(l.Src) != files[i].Display || l.File != files[i] {
			t.Errorf("entry %d: %+v", i, l)
		}
	}
	vanished := got[50]
	if vanished.Err == nil || !errors.Is(vanished.Err, fs.ErrNotExist) ||
		vanished.Err.Error() != "pallas-ls: vanished.py: no such file or directory" {
		t.Errorf("vanished file: %v", vanished.Err)
	}
	if string(got[51].Src) != "f00.py" {
		t.Errorf("duplicate entry not read: %+v", got[51])
	}
}

func TestReadAllSkipsHugeFiles(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big.py")
	fh, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: the size check must not need to read it.
	if err := fh.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	writeTree(t, root, map[string]string{"ok.py": "x = 1\n", "dir.py/": ""})
	got := ReadAll(context.Background(), []File{fileAt(root, "big.py"), fileAt(root, "ok.py"), fileAt(root, "dir.py")})
	if !errors.Is(got[0].Err, ErrTooLarge) || got[0].Src != nil {
		t.Errorf("big file: %+v", got[0].Err)
	}
	if got[1].Err != nil || string(got[1].Src) != "x = 1\n" {
		t.Errorf("small file: %+v", got[1])
	}
	if got[2].Err == nil || got[2].Err.Error() != "pallas-ls: dir.py: not a regular file (a directory)" {
		t.Errorf("directory: %v", got[2].Err)
	}
}

func TestReadAllCancelled(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": ""})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := ReadAll(ctx, []File{fileAt(root, "a.py")})
	if !errors.Is(got[0].Err, context.Canceled) {
		t.Errorf("cancelled read: %+v", got[0])
	}
	if got := ReadAll(ctx, nil); len(got) != 0 {
		t.Errorf("ReadAll(nil) = %v", got)
	}
}
