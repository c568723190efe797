package analysis_test

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// memStore is a Store in memory, safe for concurrent use as the engine
// requires of one.
type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memStore) Load(kind, key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[kind+"/"+key]
	return b, ok
}

func (s *memStore) Save(kind, key string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[kind+"/"+key] = bytes.Clone(data)
}

// TestEngineConcurrentUse holds the Engine to its word, "safe for
// concurrent use": goroutines check versions of one project (edited in
// comments, in a body, at module level) with different options, through
// one engine with a store, some of them cancelled midway, and every check
// that completes returns what a fresh check of its input returns. The race
// detector (scripts/test runs this package under -race) watches the rest.
func TestEngineConcurrentUse(t *testing.T) {
	base := loadDir(t, "../examples")
	if len(base) < 3 {
		t.Fatalf("examples: %d files", len(base))
	}
	edits := []func([]byte) []byte{
		func(b []byte) []byte { return b },
		func(b []byte) []byte { return append([]byte("# edited\n"), b...) },
		func(b []byte) []byte { return bytes.Replace(b, []byte("True"), []byte("False"), 1) },
		func(b []byte) []byte { return append(bytes.Clone(b), "\nEXTRA = 1\n"...) },
	}
	var versions [][]analysis.SourceFile
	for i := range base {
		for _, ed := range edits[1:] {
			v := append([]analysis.SourceFile(nil), base...)
			v[i].Src = ed(base[i].Src)
			versions = append(versions, v)
		}
	}
	versions = append(versions, base)
	options := []analysis.Options{
		withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true}),
		withRules(analysis.Options{JAXVersion: lowering.V(0, 7, 0)}),
		withRules(analysis.Options{JAXVersion: lowering.Latest, Ignore: []string{"PAL3*"}}),
	}
	want := make([][]*analysis.Result, len(versions))
	for i, v := range versions {
		for _, o := range options {
			r, err := analysis.Check(context.Background(), v, o)
			if err != nil {
				t.Fatal(err)
			}
			want[i] = append(want[i], r)
		}
	}
	e := analysis.NewEngine()
	e.Store, e.ToolID = &memStore{m: map[string][]byte{}}, "test"
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 4 {
		wg.Go(func() {
			for k := range 8 {
				i, j := (g*5+k*3)%len(versions), (g+k)%len(options)
				ctx, cancel := context.WithCancel(context.Background())
				if (g+k)%5 == 4 {
					cancel() // abandoned before it starts: must leave the engine sound
				}
				got, err := e.Check(ctx, versions[i], options[j])
				cancel()
				if err == nil && !reflect.DeepEqual(got, want[i][j]) {
					errs <- fmt.Errorf("goroutine %d, check %d (version %d, options %d): the result differs from a fresh check", g, k, i, j)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
