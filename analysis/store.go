package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"sort"
)

// summarizeOne returns the file's summary from the store when an entry
// for this build, path and content exists, else computes and saves it.
func (e *Engine) summarizeOne(f SourceFile) *Summary {
	if e.Store == nil {
		return safeSummarize(f.Path, f.Src)
	}
	hash := sha256.Sum256(f.Src)
	key := e.key("summary", f.Path, hex.EncodeToString(hash[:]))
	if data, ok := e.Store.Load("summary", key); ok {
		if s, err := DecodeSummary(data); err == nil && s.Path == f.Path && s.Hash == hash {
			s.Src = f.Src
			return s
		}
	}
	s := safeSummarize(f.Path, f.Src)
	if s.ParseError == "" {
		if data, err := EncodeSummary(s); err == nil {
			e.Store.Save("summary", key, data)
		}
	}
	return s
}

func (e *Engine) key(parts ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", FormatVersion, e.ToolID)
	for _, p := range parts {
		fmt.Fprintf(h, "\x00%s", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// resultKey identifies a whole run: the build, the options and every
// file's path and content.
func (e *Engine) resultKey(files []SourceFile, opts *Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "%+v", *opts)
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return files[idx[a]].Path < files[idx[b]].Path })
	for _, i := range idx {
		sum := sha256.Sum256(files[i].Src)
		fmt.Fprintf(h, "\x00%s\x00%x", files[i].Path, sum)
	}
	return e.key("result", hex.EncodeToString(h.Sum(nil)))
}

func (e *Engine) loadResult(key string) (res *Result, ok bool) {
	data, ok := e.Store.Load("result", key)
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

func (e *Engine) saveResult(key string, res *Result) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(res); err == nil {
		e.Store.Save("result", key, buf.Bytes())
	}
}
