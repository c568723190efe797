package workspace

import (
	"context"
	"maps"
	"path/filepath"
	"sync"
)

// Buffer is the content of one open editor document.
type Buffer struct {
	Src []byte
	// Version is the LSP document version; it lets the server drop results
	// computed for content the user has since changed.
	Version int32
}

// Overlay holds open editor buffers, which override disk content: an
// unsaved edit is what the user wants checked. It is safe for concurrent
// use; the zero value is an empty overlay, and a nil *Overlay has no
// buffers. Buffers are shared, not copied: Set takes ownership of src and
// callers must not modify the Src they get back.
type Overlay struct {
	mu   sync.RWMutex
	bufs map[string]Buffer
}

// NewOverlay returns an empty overlay.
func NewOverlay() *Overlay { return &Overlay{} }

// Set records the content of an open document (didOpen, didChange).
func (o *Overlay) Set(path string, src []byte, version int32) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.bufs == nil {
		o.bufs = map[string]Buffer{}
	}
	o.bufs[filepath.Clean(path)] = Buffer{Src: src, Version: version}
}

// Delete forgets a document (didClose); the disk is authoritative again.
func (o *Overlay) Delete(path string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.bufs, filepath.Clean(path))
}

// Get returns the buffer for path, if the document is open.
func (o *Overlay) Get(path string) (Buffer, bool) {
	if o == nil {
		return Buffer{}, false
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	b, ok := o.bufs[filepath.Clean(path)]
	return b, ok
}

// Snapshot copies the path -> buffer map, so a diagnosis can run on a
// consistent view while edits keep arriving.
func (o *Overlay) Snapshot() map[string]Buffer {
	if o == nil {
		return map[string]Buffer{}
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	if o.bufs == nil {
		return map[string]Buffer{}
	}
	return maps.Clone(o.bufs)
}

// Len is the number of open documents.
func (o *Overlay) Len() int {
	if o == nil {
		return 0
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	return len(o.bufs)
}

// ReadAll is the package ReadAll, with open buffers taking the place of
// the files on disk.
func (o *Overlay) ReadAll(ctx context.Context, files []File) []Loaded {
	return readAll(ctx, files, o)
}
