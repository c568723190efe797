package analysis_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// countingStore counts the tree entries read and written.
type countingStore struct {
	memStore
	mu          sync.Mutex
	hits, saves int
}

func (s *countingStore) Load(kind, key string) ([]byte, bool) {
	b, ok := s.memStore.Load(kind, key)
	s.mu.Lock()
	if ok && kind == "tree" {
		s.hits++
	}
	s.mu.Unlock()
	return b, ok
}

func (s *countingStore) Save(kind, key string, data []byte) {
	s.memStore.Save(kind, key, data)
	s.mu.Lock()
	if kind == "tree" {
		s.saves++
	}
	s.mu.Unlock()
}

func (s *countingStore) counts() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits, s.saves
}

// An engine with Trees (the server's) writes no tree while it checks: it
// queues what it parsed, and UnsavedTrees saves the queue. A later engine
// reads those trees for every file whose content is the same, parses only
// the changed one, and finds what a check without any cache finds; it
// writes nothing else to the store (no whole results: that is Store's).
func TestEngineTreesSavedAfterTheCheck(t *testing.T) {
	files := loadDir(t, "../examples")
	if len(files) < 3 {
		t.Fatalf("examples: %d files", len(files))
	}
	opts := analysis.Options{Analyzers: rules.All(), ShowInfo: true}
	st := &countingStore{memStore: memStore{m: map[string][]byte{}}}
	e := analysis.NewEngine()
	e.Trees, e.ToolID = st, "test-build"
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	if hits, saves := st.counts(); hits != 0 || saves != 0 {
		t.Fatalf("during the first check: %d tree hits, %d saves; want none", hits, saves)
	}
	save := e.UnsavedTrees()
	if save == nil {
		t.Fatal("no trees queued after the first check")
	}
	save()
	_, saved := st.counts()
	if saved == 0 {
		t.Fatal("UnsavedTrees saved nothing")
	}
	if e.UnsavedTrees() != nil {
		t.Error("the queue was not emptied")
	}
	for k := range st.m {
		if !strings.HasPrefix(k, "tree/") {
			t.Errorf("store entry %q: Trees keeps trees only", k)
		}
	}

	changed := append([]analysis.SourceFile(nil), files...)
	changed[0].Src = append(append([]byte(nil), changed[0].Src...), "\nx_changed = 1\n"...)
	next := analysis.NewEngine()
	next.Trees, next.ToolID = st, "test-build"
	got, err := next.Check(context.Background(), changed, opts)
	if err != nil {
		t.Fatal(err)
	}
	if hits, _ := st.counts(); hits == 0 {
		t.Error("the second engine read no saved tree")
	}
	if q := next.UnsavedTrees(); q == nil {
		t.Error("the changed file's tree was not queued")
	}
	want, err := analysis.Check(context.Background(), changed, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
		t.Errorf("with saved trees: %d findings, without cache: %d", len(got.Diagnostics), len(want.Diagnostics))
	}
}
