package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// source is one file's content as a check sees it: an open editor buffer
// (open, with the editor's version) or the file on disk. Sources are
// immutable once built, since checks and requests read them concurrently
// with the edits that replace them; the Mapper is built on first use
// because most files of a workspace never need positions.
type source struct {
	uri     uri.URI
	path    string
	text    []byte
	open    bool
	version int32

	once sync.Once
	m    *pyparse.Mapper
}

func (s *source) mapper() *pyparse.Mapper {
	s.once.Do(func() { s.m = pyparse.NewMapper(s.text) })
	return s.m
}

// docStore holds the open Python buffers by path. They overlay the files
// on disk for every check until the editor closes them.
type docStore struct {
	mu   sync.Mutex
	docs map[string]*source
}

func newDocStore() *docStore { return &docStore{docs: map[string]*source{}} }

func (d *docStore) get(path string) (*source, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc, ok := d.docs[path]
	return doc, ok
}

func (d *docStore) set(doc *source) {
	d.mu.Lock()
	d.docs[doc.path] = doc
	d.mu.Unlock()
}

func (d *docStore) remove(path string) {
	d.mu.Lock()
	delete(d.docs, path)
	d.mu.Unlock()
}

func (d *docStore) all() []*source {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]*source, 0, len(d.docs))
	for _, doc := range d.docs {
		out = append(out, doc)
	}
	return out
}

// uriPath maps a document URI to the engine's absolute cleaned path; ok is
// false for non-file URIs (untitled buffers, remote schemes), which have no
// place in a whole-program check.
func uriPath(u uri.URI) (string, bool) {
	if !u.IsFile() {
		return "", false
	}
	p := u.FsPath()
	if p == "" || !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

func isPython(path string, lang protocol.LanguageKind) bool {
	return strings.HasSuffix(path, ".py") || lang == protocol.LanguageKindPython
}

func (s *server) DidOpen(_ context.Context, p *protocol.DidOpenTextDocumentParams) error {
	item := p.TextDocument
	path, ok := uriPath(item.URI)
	if !ok || !isPython(path, item.LanguageID) {
		return nil
	}
	s.docs.set(&source{uri: item.URI, path: path, open: true, version: item.Version, text: []byte(item.Text)})
	s.diag.invalidate()
	return nil
}

// DidChange applies the edits in order, each against the text the
// previous one produced, as the protocol defines. Positions outside the
// text clamp to it (the Mapper clamps), so a confused client degrades the
// buffer rather than the server.
func (s *server) DidChange(_ context.Context, p *protocol.DidChangeTextDocumentParams) error {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	doc, ok := s.docs.get(path)
	if !ok {
		if strings.HasSuffix(path, ".py") { // other files are open but not ours
			s.log.warnf("didChange for %s, which is not open: ignored", p.TextDocument.URI)
		}
		return nil
	}
	text := doc.text
	utf8 := s.capsSnapshot().utf8
	for _, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			text = applyChange(text, c.Range, c.Text, utf8)
		}
	}
	s.docs.set(&source{uri: doc.uri, path: path, open: true, version: p.TextDocument.Version, text: text})
	s.diag.invalidate()
	return nil
}

// applyChange replaces one range of text, returning a new slice: the old
// text may still be in use by a check.
func applyChange(text []byte, rng protocol.Range, newText string, utf8 bool) []byte {
	span := toSpan(pyparse.NewMapper(text), rng, utf8)
	out := make([]byte, 0, len(text)-span.Len()+len(newText))
	out = append(out, text[:span.Start]...)
	out = append(out, newText...)
	return append(out, text[span.End:]...)
}

func (s *server) DidClose(_ context.Context, p *protocol.DidCloseTextDocumentParams) error {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	if _, open := s.docs.get(path); !open {
		if strings.HasSuffix(path, ".py") {
			s.log.warnf("didClose for %s, which is not open: ignored", p.TextDocument.URI)
		}
		return nil
	}
	s.docs.remove(path)
	s.diag.invalidate()
	s.syncFromDisk(path)
	return nil
}

// DidSave matters for the files that configure a check, which editors
// open and save like any other; Python buffers are already overlaid.
func (s *server) DidSave(_ context.Context, p *protocol.DidSaveTextDocumentParams) error {
	path, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	if isConfigFile(path) {
		s.reindex("saved " + filepath.Base(path))
		return nil
	}
	if strings.HasSuffix(path, ".py") {
		s.syncFromDisk(path)
	}
	return nil
}

// syncFromDisk queues a re-read of a file the editor saved or closed, as
// if the watcher had reported it changed: a known file is re-read, a new
// one goes through discovery. Clients without file watching rely on this.
func (s *server) syncFromDisk(path string) {
	ev := []fileEvent{{path, protocol.FileChangeTypeChanged}}
	s.work.push(func() { s.applyFileEvents(ev) })
}
