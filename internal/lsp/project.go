package lsp

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/config"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// project is the workspace as the last index saw it: the folders, the
// Python files on disk with their contents, and the engine options of each
// folder. Open buffers live in docStore and take precedence over it.
type project struct {
	mu       sync.Mutex
	folders  []string
	settings settingsState
	resolver *config.Resolver
	opts     map[string]analysis.Options // folder or loose-file dir -> options
	files    map[string]*source          // discovered files, as on disk
	ready    bool                        // an index has completed
	indexGen uint64
	cancel   context.CancelFunc // of the running index
}

// settingsState layers the editor settings: initializationOptions, then
// the unscoped configuration, then each folder's.
type settingsState struct {
	init   userSettings
	global userSettings
	folder map[string]userSettings
}

func (st settingsState) forDir(dir string) userSettings {
	return st.init.over(st.global).over(st.folder[dir])
}

func newProject() *project {
	return &project{resolver: config.NewResolver(), opts: map[string]analysis.Options{}, files: map[string]*source{}}
}

func (p *project) setFolders(dirs []string) {
	p.mu.Lock()
	p.folders = slices.Clone(dirs)
	p.mu.Unlock()
}

// rootOf returns the innermost folder containing path, or "".
func rootOf(path string, folders []string) string {
	best := ""
	for _, f := range folders {
		if (path == f || strings.HasPrefix(path, withSeparator(f))) && len(f) > len(best) {
			best = f
		}
	}
	return best
}

// withSeparator is dir ending in one path separator: a folder of / (or
// C:\) is its own prefix, not "//".
func withSeparator(dir string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir
	}
	return dir + string(filepath.Separator)
}

// optionsFor returns the options for a check group: a folder's, computed at
// index time, or for a file outside every folder, its directory's, computed
// now and kept until the next index.
func (s *server) optionsFor(dir string) analysis.Options {
	p := s.proj
	p.mu.Lock()
	if o, ok := p.opts[dir]; ok {
		p.mu.Unlock()
		return o
	}
	res, us := p.resolver, p.settings.forDir(dir)
	p.mu.Unlock()
	o := s.loadOptions(res, dir, us)
	p.mu.Lock()
	p.opts[dir] = o
	p.mu.Unlock()
	return o
}

// loadOptions computes options and falls back on the defaults when the
// project's settings are broken, telling the user why: a typo in
// pyproject.toml must not switch the checker off.
func (s *server) loadOptions(res *config.Resolver, dir string, us userSettings) analysis.Options {
	o, err := folderOptions(res, dir, us)
	defer s.reportProblems(res)
	if err == nil {
		return o
	}
	s.log.errorf("settings for %s: %v (using defaults)", dir, err)
	s.tellUser("pallas-ls: " + err.Error() + " (checking with default settings)")
	return analysis.Options{
		JAXVersion:       lowering.Latest,
		JAXVersionReason: "default, because the settings are unusable: " + err.Error(),
		ShowInfo:         us.ShowInfo == nil || *us.ShowInfo,
	}
}

// refreshDisk re-reads one Python file into the index, or drops it when it
// is gone. Files outside the index stay outside: whether a new file belongs
// to the workspace is discovery's call (see addDiscovered).
func (p *project) refreshDisk(path string) {
	p.mu.Lock()
	_, known := p.files[path]
	p.mu.Unlock()
	if !known {
		return
	}
	loaded := workspace.ReadAll(context.Background(), []workspace.File{{Path: path, Display: path}})
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := loaded[0]; l.Err == nil {
		p.files[path] = &source{uri: fileURI(path), path: path, text: l.Src}
	} else if errors.Is(l.Err, fs.ErrNotExist) {
		delete(p.files, path)
	}
}

// removeUnder drops every indexed file at or below path (a deleted file or
// directory).
func (p *project) removeUnder(path string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for f := range p.files {
		if f == path || strings.HasPrefix(f, withSeparator(path)) {
			delete(p.files, f)
		}
	}
}

// addDiscovered re-runs discovery on the folders that gained files and
// indexes the files it did not know. It walks the whole folder, not just
// the new file's directory, because discovery exempts an explicitly named
// path from the ignore rules above it, which would let a new file in a
// .gitignored build/ directory in.
func (s *server) addDiscovered(ctx context.Context, roots []string) {
	p := s.proj
	p.mu.Lock()
	res := p.resolver
	p.mu.Unlock()
	for _, root := range roots {
		files, warns, err := workspace.Discover([]string{root}, s.discoverOptions(ctx, root, res))
		s.logWarnings(warns, err)
		s.tellBudget(root, warns)
		s.reportProblems(res)
		fresh := slices.DeleteFunc(files, func(f workspace.File) bool { return p.known(f.Path) })
		s.storeLoaded(workspace.ReadAll(ctx, fresh))
	}
}

func (s *server) storeLoaded(loaded []workspace.Loaded) {
	p := s.proj
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range loaded {
		if l.Err == nil {
			p.files[l.Path] = &source{uri: fileURI(l.Path), path: l.Path, text: l.Src}
		}
	}
}

// tellUser shows a message once per session: a broken settings file is
// worth a popup, but not one per keystroke.
func (s *server) tellUser(msg string) {
	if _, seen := s.told.LoadOrStore(msg, true); seen {
		return
	}
	params := &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg}
	if err := s.client.ShowMessage(s.bg, params); err != nil {
		s.log.debugf("window/showMessage: %v", err)
	}
}

// reportProblems tells the user about settings files the resolver could
// not use (the files they govern are checked with the defaults), and logs
// the files it refused to read.
func (s *server) reportProblems(res *config.Resolver) {
	for _, p := range res.Problems() {
		if p.Warning {
			s.log.warnf("%v", p.Err)
			continue
		}
		s.log.errorf("%v (using defaults)", p.Err)
		s.tellUser("pallas-ls: " + p.Err.Error() + " (checking with default settings)")
	}
}

func (s *server) logWarnings(warns []error, err error) {
	for _, w := range warns {
		s.log.warnf("%v", w)
	}
	if err != nil {
		s.log.errorf("%v", err)
	}
}

// isConfigFile reports files whose change alters what or how we check.
func isConfigFile(path string) bool {
	base := filepath.Base(path)
	return base == config.PyProject || base == config.DotFile || base == ".gitignore" ||
		(strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt"))
}
