package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/config"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// index is the result of one indexing pass, installed as a whole so that a
// check never sees half of one index and half of another.
type index struct {
	settings settingsState
	resolver *config.Resolver
	opts     map[string]analysis.Options
	files    map[string]*source
	stopped  bool
}

// workQueue runs the jobs that change the project (index passes, watched
// file events, re-reads after save and close) one at a time, in the order
// they were queued, on one goroutine. Serialising them is what keeps a
// file created during indexing from being dropped when the index installs
// its older view; queueing never blocks, because the read loop queues and
// an index pass may itself wait for the read loop (workspace/configuration).
type workQueue struct {
	mu     sync.Mutex
	jobs   []func()
	signal chan struct{}
}

func newWorkQueue() *workQueue { return &workQueue{signal: make(chan struct{}, 1)} }

func (q *workQueue) push(job func()) {
	q.mu.Lock()
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

func (q *workQueue) pop() func() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.jobs) == 0 {
		return nil
	}
	job := q.jobs[0]
	q.jobs = q.jobs[1:]
	return job
}

// run executes jobs until ctx ends.
func (q *workQueue) run(ctx context.Context, s *server) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-q.signal:
		}
		for job := q.pop(); job != nil && ctx.Err() == nil; job = q.pop() {
			func() {
				defer s.recoverBackground("workspace update")
				job()
			}()
		}
	}
}

// reindex queues a fresh indexing pass, cancelling any pass still running
// or queued: the newer one sees at least as much.
func (s *server) reindex(why string) {
	p := s.proj
	ctx, cancel := context.WithCancel(s.bg)
	p.mu.Lock()
	if p.cancel != nil {
		p.cancel()
	}
	p.indexGen++
	gen := p.indexGen
	p.cancel = cancel
	p.mu.Unlock()
	s.work.push(func() { s.runIndex(ctx, cancel, gen, why) })
}

// runIndex does the same discovery, settings and JAX version detection as
// `check`, per workspace folder, with $/progress reporting. However it
// ends (done, cancelled by the user, panicked) the server ends up ready,
// so that open files are checked with whatever was indexed.
func (s *server) runIndex(ctx context.Context, cancel context.CancelFunc, gen uint64, why string) {
	defer cancel()
	var idx *index
	defer func() {
		if r := recover(); r != nil {
			s.log.errorf("internal error: indexing panicked: %v", r)
		}
		s.installIndex(gen, idx)
		s.diag.invalidate()
	}()
	s.log.infof("indexing the workspace (%s)", why)
	folders, st := s.proj.foldersAndSettings()
	st = s.refreshSettings(ctx, folders, st)
	prog := s.startProgress("pallas-ls: indexing", cancel)
	idx = s.indexFolders(ctx, folders, st, prog)
	s.setMemoryLimit(idx)
	summary := fmt.Sprintf("%d Python files in %d folders", len(idx.files), len(folders))
	if idx.stopped {
		summary = "cancelled after " + summary
	}
	s.log.infof("indexed %s", summary)
	prog.end(summary)
}

func (p *project) foldersAndSettings() ([]string, settingsState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.folders, p.settings
}

// refreshSettings replaces the configuration-sourced layers with what the
// client answers now; without an answer the previous layers stay.
func (s *server) refreshSettings(ctx context.Context, folders []string, st settingsState) settingsState {
	fetched, ok := s.fetchSettings(ctx, folders)
	if !ok {
		return st
	}
	st.global = fetched[""]
	delete(fetched, "")
	st.folder = fetched
	return st
}

func (s *server) indexFolders(ctx context.Context, folders []string, st settingsState, prog *progress) *index {
	idx := &index{settings: st, resolver: config.NewResolver(), opts: map[string]analysis.Options{}, files: map[string]*source{}}
	for i, dir := range folders {
		if ctx.Err() != nil {
			idx.stopped = true
			break
		}
		prog.report(fmt.Sprintf("%s (%d/%d)", filepath.Base(dir), i+1, len(folders)), uint32(100*i/len(folders)))
		if s.cfg.indexHook != nil {
			s.cfg.indexHook(ctx, dir)
		}
		idx.opts[dir] = s.loadOptions(idx.resolver, dir, st.forDir(dir))
		files, warns, err := workspace.Discover([]string{dir}, s.discoverOptions(ctx, dir, idx.resolver))
		s.logWarnings(warns, err)
		s.tellBudget(dir, warns)
		s.reportProblems(idx.resolver)
		for _, l := range workspace.ReadAll(ctx, files) {
			switch {
			case l.Err == nil:
				idx.files[l.Path] = &source{uri: fileURI(l.Path), path: l.Path, text: l.Src}
			case ctx.Err() == nil:
				s.log.warnf("%v", l.Err)
			}
		}
	}
	idx.stopped = idx.stopped || ctx.Err() != nil
	return idx
}

// discoverOptions are the options of discovery in a workspace folder:
// its settings files' excludes, the server's budget, and ctx.
func (s *server) discoverOptions(ctx context.Context, dir string, res *config.Resolver) workspace.DiscoverOptions {
	return workspace.DiscoverOptions{WorkDir: dir, ConfigExcludes: res.ExcludesIn, Budget: s.cfg.budget, Context: ctx}
}

// tellBudget tells the user, once, that a folder was too large to index
// whole.
func (s *server) tellBudget(dir string, warns []error) {
	for _, w := range warns {
		if errors.Is(w, workspace.ErrBudget) {
			msg := strings.TrimPrefix(w.Error(), "pallas-ls: warning: ")
			s.tellUser(fmt.Sprintf("pallas-ls: workspace folder %s: %s (open files are always checked)", dir, msg))
		}
	}
}

// setMemoryLimit scales the soft heap limit to the Python indexed and
// open, as check does to what it reads.
func (s *server) setMemoryLimit(idx *index) {
	var total int64
	for _, src := range idx.files {
		total += int64(len(src.text))
	}
	for _, doc := range s.docs.all() {
		total += int64(len(doc.text))
	}
	workspace.SetMemoryLimit(total)
}

// installIndex makes idx current unless a newer pass has started since.
func (s *server) installIndex(gen uint64, idx *index) {
	p := s.proj
	p.mu.Lock()
	defer p.mu.Unlock()
	if gen != p.indexGen {
		return
	}
	p.ready = true
	p.cancel = nil
	if idx == nil {
		return
	}
	p.settings, p.resolver, p.opts, p.files = idx.settings, idx.resolver, idx.opts, idx.files
}
