package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

// snapshot is the input of one check: every Python file of the workspace
// with open buffers overlaid, split into groups that share options.
type snapshot struct {
	files  map[string]*source
	groups []group
}

// group is one engine run. Each workspace folder is one program, checked
// with its own settings; files open outside every folder form a group per
// directory. Splitting further (per settings file) would cut call edges
// between files of one project.
type group struct {
	key   string
	paths []string
}

// results is what one check found, kept with the sources it saw so that
// offsets convert against the right text.
type results struct {
	snap    *snapshot
	opts    map[string]analysis.Options // group key -> options used
	groupOf map[string]string           // file -> group key
	diags   map[string][]analysis.Diagnostic
	kernels map[string][]analysis.KernelCallInfo
	// groupCalls are each group's kernel calls, from which labels
	// (analysis.ContextLabels, by file) are made when first asked for:
	// never on the way from an edit to its diagnostics.
	groupCalls [][]analysis.KernelCallInfo
	labelsOnce sync.Once
	labelsBy   map[string][]analysis.ContextLabel
	// platform is, per group key, the platform the run took and why.
	platform map[string][2]string
	failed   map[string]bool // files whose check failed; their last report stands
}

func (r *results) mapper(path string) *pyparse.Mapper {
	if src, ok := r.snap.files[path]; ok {
		return src.mapper()
	}
	return nil
}

// labels returns the context labels of every file, made once per check.
func (r *results) labels() map[string][]analysis.ContextLabel {
	r.labelsOnce.Do(func() {
		r.labelsBy = map[string][]analysis.ContextLabel{}
		for _, calls := range r.groupCalls {
			for _, l := range analysis.ContextLabels(calls) {
				r.labelsBy[l.File] = append(r.labelsBy[l.File], l)
			}
		}
	})
	return r.labelsBy
}

func (r *results) options(path string) analysis.Options { return r.opts[r.groupOf[path]] }

// takeSnapshot returns nil while the first index is still running: a
// check of the open files alone would flash false findings that the full
// program then retracts.
func (s *server) takeSnapshot() *snapshot {
	p := s.proj
	p.mu.Lock()
	if !p.ready {
		p.mu.Unlock()
		return nil
	}
	files := make(map[string]*source, len(p.files)+8)
	for path, src := range p.files {
		files[path] = src
	}
	folders := p.folders
	p.mu.Unlock()
	for _, doc := range s.docs.all() {
		if len(doc.text) > workspace.MaxFileSize {
			// The same cap as check's: a buffer this large is generated
			// or vendored, and parsing it would cost gigabytes.
			delete(files, doc.path)
			s.tellUser(fmt.Sprintf("pallas-ls: %s is larger than %d MiB; not checked", doc.path, workspace.MaxFileSize>>20))
			continue
		}
		files[doc.path] = doc
	}
	byGroup := map[string][]string{}
	for path := range files {
		key := rootOf(path, folders)
		if key == "" {
			key = filepath.Dir(path)
		}
		byGroup[key] = append(byGroup[key], path)
	}
	snap := &snapshot{files: files}
	for key, paths := range byGroup {
		sort.Strings(paths)
		snap.groups = append(snap.groups, group{key: key, paths: paths})
	}
	sort.Slice(snap.groups, func(i, j int) bool { return snap.groups[i].key < snap.groups[j].key })
	return snap
}

// diagnose checks a fresh snapshot. ok is false when there is nothing to
// report yet (indexing) or the check was cancelled by a newer change.
func (s *server) diagnose(ctx context.Context) (*results, bool) {
	snap := s.takeSnapshot()
	if snap == nil {
		return nil, false
	}
	res := newResults(snap)
	s.dropEngines(snap.groups)
	s.publishCached(ctx, snap)
	for _, g := range snap.groups {
		opts := s.optionsFor(g.key)
		res.opts[g.key] = opts
		r, err := s.checkGroup(ctx, snap, g, opts)
		if ctx.Err() != nil {
			return nil, false
		}
		for _, p := range g.paths {
			res.groupOf[p] = g.key
			res.failed[p] = err != nil
		}
		if err != nil {
			s.log.errorf("checking %s: %v", g.key, err)
			continue
		}
		res.add(r, g)
		s.noteIncomplete(g.key, r.Incomplete)
		s.saveFirstResult(snap, g, opts, r)
		s.saveTrees(g.key)
	}
	return res, true
}

// checkGroup runs the engine, turning a panic into an error: a crash on
// one file must not take the editor session down with it.
func (s *server) checkGroup(ctx context.Context, snap *snapshot, g group, opts analysis.Options) (r *analysis.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: the checker panicked: %v", p)
		}
	}()
	files, opts := s.groupInput(snap, g, opts)
	r, err = s.engine(g.key).Check(ctx, files, opts)
	if err == nil && r == nil {
		err = fmt.Errorf("internal error: the checker returned no result")
	}
	return r, err
}

// groupInput is what the engine is given for group g: its files, and
// opts with the server's rules.
func (s *server) groupInput(snap *snapshot, g group, opts analysis.Options) ([]analysis.SourceFile, analysis.Options) {
	files := make([]analysis.SourceFile, len(g.paths))
	for i, p := range g.paths {
		files[i] = analysis.SourceFile{Path: p, Src: snap.files[p].text}
	}
	opts.Analyzers = s.cfg.analyzers
	return files, opts
}

func newResults(snap *snapshot) *results {
	return &results{snap: snap, opts: map[string]analysis.Options{}, groupOf: map[string]string{},
		diags: map[string][]analysis.Diagnostic{}, kernels: map[string][]analysis.KernelCallInfo{},
		platform: map[string][2]string{},
		failed:   map[string]bool{}}
}

func (r *results) add(res *analysis.Result, g group) {
	for _, d := range res.Diagnostics {
		r.diags[d.File] = append(r.diags[d.File], d)
	}
	for _, k := range res.KernelCalls {
		r.kernels[k.File] = append(r.kernels[k.File], k)
	}
	r.groupCalls = append(r.groupCalls, res.KernelCalls)
	r.platform[g.key] = [2]string{res.Platform, res.PlatformReason}
}

// currentSource waits for the check covering every edit received so far
// and returns it with the document's source in it (nil source: not a
// file the check covers; the request then answers nothing).
func (s *server) currentSource(ctx context.Context, u uri.URI) (*results, *source, error) {
	path, ok := uriPath(u)
	if !ok || !s.mayHold(path) {
		return nil, nil, nil
	}
	res, err := s.diag.await(ctx)
	if err != nil {
		return nil, nil, err
	}
	return res, res.snap.files[path], nil
}

// mayHold reports whether a check may have results for path: an open
// document, or a file of a workspace folder that the index found (or may
// still find: no index has completed). A request about any other path
// has nothing to wait for (takeSnapshot holds only those files), so it is
// answered at once, even while a long first check runs.
func (s *server) mayHold(path string) bool {
	if _, open := s.docs.get(path); open {
		return true
	}
	p := s.proj
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ready {
		return rootOf(path, p.folders) != ""
	}
	return p.files[path] != nil
}

// engine returns the checker of the group with the given key.
func (s *server) engine(key string) checker {
	s.enginesMu.Lock()
	defer s.enginesMu.Unlock()
	if s.engines == nil {
		s.engines = map[string]checker{}
	}
	e, ok := s.engines[key]
	if !ok {
		e = s.cfg.newChecker()
		s.engines[key] = e
	}
	return e
}

// dropEngines forgets the engines of groups that are gone (a folder
// removed, the last file open outside the folders closed), with their
// caches.
func (s *server) dropEngines(groups []group) {
	s.enginesMu.Lock()
	defer s.enginesMu.Unlock()
	for key := range s.engines {
		if !slices.ContainsFunc(groups, func(g group) bool { return g.key == key }) {
			delete(s.engines, key)
		}
	}
}

// noteIncomplete tells the user, once per session, that a check was cut
// short by its step budget, and logs where each time that changes.
func (s *server) noteIncomplete(group, msg string) {
	if s.incomplete == nil {
		s.incomplete = map[string]string{}
	}
	if s.incomplete[group] == msg {
		return
	}
	s.incomplete[group] = msg
	if msg == "" {
		return
	}
	s.log.warnf("%s: %s", group, msg)
	s.tellUser("pallas-ls: this workspace is larger than the analysis's step budget; some findings may be missing (details in the log)")
}
