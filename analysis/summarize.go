package analysis

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// Summaries for a check: each file's from the cache when its bytes did not
// change, else parsed in parallel, incrementally from the live tree of an
// edited file, or moved in place when the edit touched only comments and
// spacing (ir/trivia.go); store.go adds the on-disk cache of trees.

// summarize parses files in parallel, reusing cached summaries. A file
// whose content changed since the last call is being edited: it is parsed
// incrementally from its live tree (kept for the next edit).
func (e *Engine) summarize(ctx context.Context, files []SourceFile) []*ir.Summary {
	out := make([]*ir.Summary, len(files))
	type job struct {
		i    int
		live *pp.LiveTree // the previous tree, or nil
		prev *ir.Summary  // the summary of the previous version, or nil
		edit bool         // keep a live tree for the next edit
	}
	var todo []job
	for i, f := range files {
		prev := e.cache[f.Path]
		switch {
		case prev != nil && sameBytes(prev.Src, f.Src):
			out[i] = prev
		case prev != nil || e.live[f.Path] != nil:
			todo = append(todo, job{i: i, live: e.takeLive(f.Path), prev: prev, edit: true})
		default:
			todo = append(todo, job{i: i})
		}
	}
	// The largest files first: a large file taken last would leave the
	// other workers idle.
	slices.SortStableFunc(todo, func(a, b job) int { return len(files[b.i].Src) - len(files[a.i].Src) })
	newLive := make([]*pp.LiveTree, len(files))
	shifted := make([]bool, len(files))
	var wg sync.WaitGroup
	work := make(chan job)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if j.edit {
					out[j.i], newLive[j.i], shifted[j.i] = summarizeLive(files[j.i], j.live, j.prev)
				} else {
					out[j.i] = e.summarizeOne(files[j.i])
				}
			}
		}()
	}
	for _, j := range todo {
		if ctx.Err() != nil {
			j.live.Close()
			continue
		}
		work <- j
	}
	close(work)
	wg.Wait()
	for i, lt := range newLive {
		if lt != nil {
			e.putLive(files[i].Path, lt)
		}
		if shifted[i] {
			if e.shifted == nil {
				e.shifted = map[*ir.Summary]bool{}
			}
			e.shifted[out[i]] = true
			e.trivia++
		}
	}
	next := make(map[string]*ir.Summary, len(files))
	var kept []*ir.Summary
	for _, s := range out {
		if s != nil {
			next[s.Path] = s
			kept = append(kept, s)
		}
	}
	e.cache = next
	return kept
}

// summarizeLive summarises an edited file, parsing incrementally. When
// the edit changed only comments and spacing, prev (the summary of the
// version old was parsed from) moves onto the new text in place and
// shifted is set (ir/trivia.go).
func summarizeLive(f SourceFile, old *pp.LiveTree, prev *ir.Summary) (s *ir.Summary, lt *pp.LiveTree, shifted bool) {
	before := old.Flat()
	tree, lt, err := pp.ParseLive(old, f.Src)
	if err != nil {
		return safeSummarize(f.Path, f.Src), nil, false
	}
	if prev != nil && before != nil && sameBytes(before.Src, prev.Src) {
		if edit, ok := pp.TriviaEdit(before, tree); ok && prev.ShiftTo(edit, tree) {
			return prev, lt, true
		}
	}
	if s, ok := safeSummarizeTree(f.Path, tree); ok {
		return s, lt, false
	}
	lt.Close()
	return safeSummarize(f.Path, f.Src), nil, false
}

// maxLive bounds the live trees kept (C memory, one per edited file).
const maxLive = 16

func (e *Engine) takeLive(path string) *pp.LiveTree {
	lt := e.live[path]
	delete(e.live, path)
	return lt
}

func (e *Engine) putLive(path string, lt *pp.LiveTree) {
	e.live[path] = lt
	order := e.liveOrder[:0]
	for _, p := range e.liveOrder {
		if p != path && e.live[p] != nil {
			order = append(order, p)
		}
	}
	e.liveOrder = append(order, path)
	for len(e.liveOrder) > maxLive {
		old := e.liveOrder[0]
		e.liveOrder = e.liveOrder[1:]
		e.live[old].Close()
		delete(e.live, old)
	}
}

// safeSummarize turns a summarizer bug into a file-level note instead of
// a crash: the rest of the program is still analysed.
func safeSummarize(path string, src []byte) (s *ir.Summary) {
	defer func() {
		if r := recover(); r != nil {
			s = &ir.Summary{Path: path, Src: src, ParseError: fmt.Sprintf("internal error while reading this file: %v", r)}
		}
	}()
	return ir.Summarize(path, src)
}
