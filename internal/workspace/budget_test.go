package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiscoverBudget (issue 20, defect 5): a walk stops at its budget of
// files, bytes or directory entries, keeps what it found and says so.
func TestDiscoverBudget(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("d%d/f%02d.py", i%3, i)] = strings.Repeat("x", 100)
		files[fmt.Sprintf("d%d/n%02d.txt", i%3, i)] = ""
	}
	writeTree(t, root, files)
	for name, tc := range map[string]struct {
		b    Budget
		want int
		msg  string
	}{
		"files":   {Budget{Files: 10}, 10, "more than 10 Python files; checking the first 10 found"},
		"bytes":   {Budget{Bytes: 1050}, 10, "more than 1050 bytes of Python; checking the 10 files found before"},
		"entries": {Budget{Entries: 30}, 20, "after 30 directory entries"},
		"ample":   {Budget{Files: 100, Bytes: 1 << 20, Entries: 1000}, 60, ""},
	} {
		t.Run(name, func(t *testing.T) {
			got, warns, err := Discover(nil, DiscoverOptions{WorkDir: root, Budget: tc.b})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Errorf("%d files, want %d", len(got), tc.want)
			}
			if tc.msg == "" {
				if len(warns) != 0 {
					t.Errorf("warnings %v", warns)
				}
				return
			}
			if len(warns) != 1 || !errors.Is(warns[0], ErrBudget) || !strings.Contains(warns[0].Error(), tc.msg) {
				t.Errorf("warnings %v, want one saying %q", warns, tc.msg)
			}
		})
	}
}

// TestDiscoverCancelled: a cancelled walk stops at once with a warning.
func TestDiscoverCancelled(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "", "b/c.py": ""})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, warns, err := Discover(nil, DiscoverOptions{WorkDir: root, Context: ctx})
	if err != nil || len(got) != 0 || len(warns) != 1 || !errors.Is(warns[0], context.Canceled) {
		t.Errorf("got %v, warnings %v, err %v", got, warns, err)
	}
}

// TestDiscoverBudgetIgnoresSkippedFiles: a file over MaxFileSize, which
// ReadAll skips, spends none of the byte budget.
func TestDiscoverBudgetIgnoresSkippedFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "x = 1\n", "c.py": "y = 2\n"})
	f, err := os.Create(filepath.Join(root, "b.py"))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 30)
	f.Close()
	got, warns, err := Discover(nil, DiscoverOptions{WorkDir: root, Budget: Budget{Bytes: 1 << 20}})
	if err != nil || len(got) != 3 || len(warns) != 0 {
		t.Errorf("got %v, warnings %v, err %v; want all three files", got, warns, err)
	}
}
