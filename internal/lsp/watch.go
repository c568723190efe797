package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
)

// watchedGlobs are the files whose changes outside the editor matter: the
// Python sources, and everything that decides settings, JAX version and
// which files are checked.
var watchedGlobs = []string{"**/*.py", "**/pyproject.toml", "**/.pallas-ls.toml", "**/requirements*.txt", "**/.gitignore"}

// initialFolders reads the workspace roots, preferring workspaceFolders
// over the deprecated rootUri and rootPath.
func initialFolders(p *protocol.InitializeParams) []string {
	var dirs []string
	if wf, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range wf {
			if d, ok := uriPath(f.URI); ok {
				dirs = append(dirs, d)
			}
		}
		return dirs
	}
	if p.RootURI != nil {
		if d, ok := uriPath(*p.RootURI); ok {
			return []string{d}
		}
	}
	if rp, ok := p.RootPath.Get(); ok && filepath.IsAbs(rp) {
		return []string{filepath.Clean(rp)}
	}
	return nil
}

// registerWatchers asks the client to report changes to watchedGlobs.
// Registration is a request, so it runs in the background; a client that
// refuses it or never answers only loses external-change tracking.
func (s *server) registerWatchers() {
	if !s.capsSnapshot().watchFiles {
		return
	}
	watchers := make([]protocol.FileSystemWatcher, len(watchedGlobs))
	for i, g := range watchedGlobs {
		watchers[i] = protocol.FileSystemWatcher{GlobPattern: protocol.Pattern(g)}
	}
	opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers})
	if err != nil {
		s.log.errorf("internal error: encoding watchers: %v", err)
		return
	}
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              "pallas-ls/watched-files",
		Method:          protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: protocol.LSPAny(opts),
	}}}
	s.goClient("client/registerCapability", func(ctx context.Context) error {
		return s.client.RegisterCapability(ctx, params)
	}, nil)
}

// DidChangeWatchedFiles folds external changes into the index. A changed
// settings file re-indexes everything (exclusions, versions and options may
// all have moved); Python files are re-read, dropped, or discovered. The
// work is queued behind any index pass in progress.
func (s *server) DidChangeWatchedFiles(_ context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	var events []fileEvent
	for _, ev := range p.Changes {
		path, ok := uriPath(ev.URI)
		if !ok {
			continue
		}
		if isConfigFile(path) {
			s.reindex("changed " + filepath.Base(path))
			return nil
		}
		events = append(events, fileEvent{path, ev.Type})
	}
	if len(events) > 0 {
		s.work.push(func() { s.applyFileEvents(events) })
	}
	return nil
}

type fileEvent struct {
	path string
	typ  protocol.FileChangeType
}

func (s *server) applyFileEvents(events []fileEvent) {
	folders, _ := s.proj.foldersAndSettings()
	var newRoots []string
	for _, ev := range events {
		switch {
		case ev.typ == protocol.FileChangeTypeDeleted:
			s.proj.removeUnder(ev.path)
		case !strings.HasSuffix(ev.path, ".py"):
		case s.proj.known(ev.path):
			s.proj.refreshDisk(ev.path)
		default:
			if r := rootOf(ev.path, folders); r != "" && !slices.Contains(newRoots, r) {
				newRoots = append(newRoots, r)
			}
		}
	}
	s.addDiscovered(s.bg, newRoots)
	s.diag.invalidate()
}

func (p *project) known(path string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.files[path]
	return ok
}

// DidChangeWorkspaceFolders re-indexes with the new set of roots.
func (s *server) DidChangeWorkspaceFolders(_ context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	folders, _ := s.proj.foldersAndSettings()
	for _, f := range p.Event.Removed {
		if d, ok := uriPath(f.URI); ok {
			folders = slices.DeleteFunc(slices.Clone(folders), func(x string) bool { return x == d })
		}
	}
	for _, f := range p.Event.Added {
		if d, ok := uriPath(f.URI); ok && !slices.Contains(folders, d) {
			folders = append(slices.Clone(folders), d)
		}
	}
	s.proj.setFolders(folders)
	s.reindex("workspace folders changed")
	return nil
}

// DidChangeConfiguration takes settings pushed in the notification (the
// old style) and re-indexes, which also pulls workspace/configuration from
// clients that support it (the new style, where the payload is empty).
func (s *server) DidChangeConfiguration(_ context.Context, p *protocol.DidChangeConfigurationParams) error {
	us, ok, err := parseSettings(p.Settings)
	if err != nil {
		s.log.warnf("didChangeConfiguration: %v", err)
	}
	if ok {
		s.proj.mu.Lock()
		s.proj.settings.global = us
		s.proj.mu.Unlock()
	}
	s.reindex("settings changed")
	return nil
}
