package lsp

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"

	"go.lsp.dev/protocol"
)

// report sends what changed since the last run. In push mode that is one
// publishDiagnostics per file whose set changed, including files that lost
// all their findings; since every run checks the whole program, an edit
// to a callee re-publishes its callers without any dependency tracking. In
// pull mode the client asks per file, so a change only earns a refresh
// request. The caller holds d.runMu.
func (s *server) report(ctx context.Context, res *results) {
	d := s.diag
	cc := s.capsSnapshot()
	changed := false
	for _, path := range reportPaths(res, d.reported) {
		if ctx.Err() != nil {
			return
		}
		if res.failed[path] {
			continue
		}
		list := s.fileDiagnostics(res, path)
		key := diagKey(list)
		if key == d.reported[path] {
			continue
		}
		if !cc.pullDiagnostics && !s.publish(ctx, res, path, list) {
			continue
		}
		if key == "" {
			delete(d.reported, path)
		} else {
			d.reported[path] = key
		}
		changed = true
	}
	if changed && cc.pullDiagnostics && cc.diagnosticReload {
		s.goClient("workspace/diagnostic/refresh", s.client.DiagnosticRefresh, nil)
	}
	s.refreshLabels(res)
}

// reportPaths lists the files with findings now or at the last report.
func reportPaths(res *results, reported map[string]string) []string {
	var paths []string
	for p := range res.diags {
		paths = append(paths, p)
	}
	for p := range reported {
		if _, ok := res.diags[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths
}

func (s *server) publish(ctx context.Context, res *results, path string, list []protocol.Diagnostic) bool {
	params := &protocol.PublishDiagnosticsParams{URI: fileURI(path), Diagnostics: list}
	if src, ok := res.snap.files[path]; ok && src.open {
		params.URI = src.uri
		params.Version = protocol.NewOptional(src.version)
	}
	if err := s.client.PublishDiagnostics(ctx, params); err != nil {
		if ctx.Err() == nil {
			s.log.warnf("publishDiagnostics %s: %v", path, err)
		}
		return false
	}
	return true
}

// fileDiagnostics converts one file's findings; never nil, since clients
// read a null list as malformed.
func (s *server) fileDiagnostics(res *results, path string) []protocol.Diagnostic {
	utf8 := s.capsSnapshot().utf8
	list := []protocol.Diagnostic{}
	for _, d := range res.diags[path] {
		list = append(list, toDiagnostic(d, res.mapper, utf8))
	}
	return list
}

// diagKey identifies a converted set; "" is the empty set.
func diagKey(list []protocol.Diagnostic) string {
	if len(list) == 0 {
		return ""
	}
	raw, err := protocol.Marshal(list)
	if err != nil {
		return fmt.Sprintf("unencodable %d", len(list))
	}
	return string(raw)
}

func resultID(key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("%016x", h.Sum64())
}

// Diagnostic answers a pull request with the results of the newest check,
// waiting for the check that covers the edits made so far.
func (s *server) Diagnostic(ctx context.Context, p *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	res, err := s.diag.await(ctx)
	if err != nil {
		return nil, err
	}
	path, _ := uriPath(p.TextDocument.URI)
	list := s.fileDiagnostics(res, path)
	id := resultID(diagKey(list))
	if p.PreviousResultID != nil && *p.PreviousResultID == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{
			UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{Kind: "unchanged", ResultID: id},
		}, nil
	}
	return &protocol.RelatedFullDocumentDiagnosticReport{
		FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{Kind: "full", ResultID: &id, Items: list},
	}, nil
}

// DiagnosticWorkspace answers workspace/diagnostic (pull): the findings of
// every file of the newest check, open or not, so that the Problems panel
// lists files whose causes are in the open ones. A file whose result id
// the client already holds is reported unchanged; a file that lost its
// findings is reported with an empty list.
func (s *server) DiagnosticWorkspace(ctx context.Context, p *protocol.WorkspaceDiagnosticParams) (*protocol.WorkspaceDiagnosticReport, error) {
	res, err := s.diag.await(ctx)
	if err != nil {
		return nil, err
	}
	known := map[string]string{}
	for _, prev := range p.PreviousResultIds {
		if path, ok := uriPath(prev.URI); ok {
			known[path] = prev.Value
		}
	}
	paths := make([]string, 0, len(res.diags)+len(known))
	for path := range res.diags {
		paths = append(paths, path)
	}
	for path := range known {
		if _, ok := res.diags[path]; !ok {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	report := &protocol.WorkspaceDiagnosticReport{Items: []protocol.WorkspaceDocumentDiagnosticReport{}}
	for _, path := range paths {
		if res.failed[path] {
			continue
		}
		list := s.fileDiagnostics(res, path)
		id := resultID(diagKey(list))
		var version *int32
		if src, ok := res.snap.files[path]; ok && src.open {
			version = ptr(src.version)
		}
		if known[path] == id {
			report.Items = append(report.Items, &protocol.WorkspaceUnchangedDocumentDiagnosticReport{
				UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{Kind: "unchanged", ResultID: id},
				URI:                               res.uriOf(path), Version: version,
			})
			continue
		}
		report.Items = append(report.Items, &protocol.WorkspaceFullDocumentDiagnosticReport{
			FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{Kind: "full", ResultID: &id, Items: list},
			URI:                          res.uriOf(path), Version: version,
		})
	}
	return report, nil
}
