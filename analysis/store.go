package analysis

import (
	"bytes"

	"github.com/pallas-ls/pallas-ls/analysis/ir"

	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"sort"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// summarizeOne summarises a file, taking its syntax tree from the store
// when an entry for this build and content exists (parsing is most of the
// cost; rebuilding the summary from the flat tree is cheap), else parsing
// it and saving the tree (with Engine.Trees: queueing it, for
// UnsavedTrees).
func (e *Engine) summarizeOne(f SourceFile) *ir.Summary {
	st := e.Store
	if st == nil {
		st = e.Trees
	}
	if st == nil {
		return safeSummarize(f.Path, f.Src)
	}
	hash := sha256.Sum256(f.Src)
	key := e.key("tree", hex.EncodeToString(hash[:]))
	if data, ok := st.Load("tree", key); ok {
		if tree, err := pp.DecodeTree(f.Src, data); err == nil {
			if s, ok := safeSummarizeTree(f.Path, tree); ok {
				return s
			}
		}
	}
	tree, err := pp.Parse(f.Src)
	if err != nil {
		return safeSummarize(f.Path, f.Src)
	}
	if e.Store != nil {
		e.Store.Save("tree", key, encodeTree(tree))
	} else {
		e.treesMu.Lock()
		e.treeQueue = append(e.treeQueue, queuedTree{key: key, src: f.Src})
		e.treesMu.Unlock()
	}
	if s, ok := safeSummarizeTree(f.Path, tree); ok {
		return s
	}
	return safeSummarize(f.Path, f.Src)
}

func encodeTree(tree *pp.Tree) []byte {
	return tree.AppendBinary(make([]byte, 0, 12+len(tree.Nodes)*21))
}

// queuedTree is a file whose tree an Engine with Trees parsed and did not
// save: its key and its (immutable) content.
type queuedTree struct {
	key string
	src []byte
}

// UnsavedTrees takes the queue of trees the engine parsed and did not save
// (Engine.Trees) and returns the work of saving them: each file parsed
// again and its tree written, one after another. It touches no other
// engine state, so it may run on its own goroutine while the engine
// checks; nil when there is nothing to save. The editor's first check
// then costs no write, and its next session reads the trees.
func (e *Engine) UnsavedTrees() func() {
	e.treesMu.Lock()
	q := e.treeQueue
	e.treeQueue = nil
	e.treesMu.Unlock()
	st := e.Trees
	if len(q) == 0 || st == nil {
		return nil
	}
	return func() {
		for _, t := range q {
			if tree, err := pp.Parse(t.src); err == nil {
				st.Save("tree", t.key, encodeTree(tree))
			}
		}
	}
}

// safeSummarizeTree is SummarizeTree with a summarizer bug (or a corrupt
// cached tree that passed validation) reported as false, not a crash.
func safeSummarizeTree(path string, tree *pp.Tree) (s *ir.Summary, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = nil, false
		}
	}()
	return ir.SummarizeTree(path, tree), true
}

func (e *Engine) key(parts ...string) string { return storeKey(e.ToolID, parts...) }

func storeKey(toolID string, parts ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", FormatVersion, toolID)
	for _, p := range parts {
		fmt.Fprintf(h, "\x00%s", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// resultKey identifies a whole run: the build, the options and every
// file's path and content. It leaves ShowInfo out: a saved result always
// holds the info- and hint-level findings (Check computes them even when
// it hides them, SaveResult saves only a result that has them), and a run
// that hides them filters them on load (loadFiltered). So `check`, which
// hides them by default, and the language server, which shows them, share
// one entry: a check warms the editor's first diagnostics
// (internal/lsp/warmcache.go).
func resultKey(toolID string, files []SourceFile, opts *Options) string {
	h := sha256.New()
	ko := *opts
	ko.ShowInfo = true
	fmt.Fprint(h, ko.key(false))
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return files[idx[a]].Path < files[idx[b]].Path })
	for _, i := range idx {
		sum := sha256.Sum256(files[i].Src)
		fmt.Fprintf(h, "\x00%s\x00%x", files[i].Path, sum)
	}
	return storeKey(toolID, "result", hex.EncodeToString(h.Sum(nil)))
}

// CachedResult returns the result that Check, given st as its Store and
// toolID as its ToolID, would load for files and opts instead of running:
// one saved for this build, these options and exactly these files' paths
// and contents, by `check` or by SaveResult. It runs nothing, so a caller
// that needs an engine's state for later edits (the language server)
// shows this result at once and still runs Check on an engine without
// the store.
func CachedResult(st Store, toolID string, files []SourceFile, opts Options) (*Result, bool) {
	if st == nil {
		return nil, false
	}
	return loadFiltered(st, resultKey(toolID, files, &opts), &opts)
}

// loadFiltered loads the result saved under key, without its info- and
// hint-level findings unless opts show them.
func loadFiltered(st Store, key string, opts *Options) (*Result, bool) {
	res, ok := loadResult(st, key)
	if ok && !opts.ShowInfo {
		res.Diagnostics = filterInfo(res.Diagnostics, false)
	}
	return res, ok
}

// SaveResult stores res, which must be what Check returned for files and
// opts, under the key CachedResult and a cached Check look up; only when
// opts show infos, since the entry is shared with runs that do.
func SaveResult(st Store, toolID string, files []SourceFile, opts Options, res *Result) {
	if st == nil || res == nil || !opts.ShowInfo {
		return // without its infos it is not what the key promises
	}
	saveResult(st, resultKey(toolID, files, &opts), res)
}

func loadResult(st Store, key string) (res *Result, ok bool) {
	data, ok := st.Load("result", key)
	if !ok {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			res, ok = nil, false
		}
	}()
	res = &Result{}
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(res); err != nil {
		return nil, false
	}
	return res, true
}

func saveResult(st Store, key string, res *Result) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(res); err == nil {
		st.Save("result", key, buf.Bytes())
	}
}

// FormatVersion names the layout of cached trees and results and the
// meaning of summaries built from them; bump it whenever the IR builder,
// Result or the tree encoding change, so caches written by an older build
// are never read. (Cache keys also carry the build's identity.)
const FormatVersion = "pallas-ls-cache-5"

// Store persists trees and results between runs (a cache). Load reports
// misses and unreadable entries alike as false; the engine then recomputes
// and saves again. Implementations must be safe for concurrent use.
type Store interface {
	Load(kind, key string) ([]byte, bool)
	Save(kind, key string, data []byte)
}
