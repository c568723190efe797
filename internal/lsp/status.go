package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// statusCommand is the workspace/executeCommand the editors' status items
// call: which JAX version and platform a file is checked for, and why.
const statusCommand = "pallas-ls.status"

// status is the answer to statusCommand. Every field is always present.
type status struct {
	Server           string `json:"server"` // "pallas-ls 0.1.0"
	Folder           string `json:"folder"` // the group the file belongs to
	JAXVersion       string `json:"jaxVersion"`
	JAXVersionReason string `json:"jaxVersionReason"`
	// Platform is "tpu", "gpu" or "auto" (each kernel's own markers).
	Platform       string `json:"platform"`
	PlatformReason string `json:"platformReason"`
	TPUChip        string `json:"tpuChip"` // "" = none set
	ContextLabels  string `json:"contextLabels"`
	Files          int    `json:"files"` // files the check of the folder covered
}

// ExecuteCommand runs statusCommand, for the file named by its optional
// argument (a URI string) or else the first group of the newest check.
func (s *server) ExecuteCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	if p.Command != statusCommand {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "unknown command: "+p.Command)
	}
	res, err := s.diag.await(ctx)
	if err != nil {
		return nil, err
	}
	key := ""
	if len(p.Arguments) > 0 {
		var u string
		if json.Unmarshal(p.Arguments[0], &u) == nil {
			if path, ok := uriPath(uri.URI(u)); ok {
				key = res.groupOf[path]
			}
		}
	}
	if key == "" && len(res.snap.groups) > 0 {
		key = res.snap.groups[0].key
	}
	st := s.statusOf(res, key)
	raw, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return protocol.LSPAny(raw), nil
}

func (s *server) statusOf(res *results, key string) status {
	opts := res.opts[key]
	p := s.proj
	p.mu.Lock()
	us := p.settings.forDir(key)
	p.mu.Unlock()
	st := status{
		Server: serverName + " " + s.cfg.version, Folder: key,
		JAXVersion: opts.JAXVersion.String(), JAXVersionReason: opts.JAXVersionReason,
		Platform: "auto", PlatformReason: "no platform setting: each kernel's own markers decide",
		TPUChip: opts.TPUChip, ContextLabels: us.ContextLabels,
	}
	if st.ContextLabels == "" {
		st.ContextLabels = "auto"
	}
	if pl := res.platform[key]; pl[0] != "" {
		st.Platform, st.PlatformReason = pl[0], pl[1]
		if us.Platform != "" && !strings.EqualFold(strings.TrimSpace(us.Platform), "auto") {
			st.PlatformReason = "editor setting pallas-ls.platform = " + us.Platform
		}
	}
	for _, g := range res.snap.groups {
		if g.key == key {
			st.Files = len(g.paths)
		}
	}
	return st
}
