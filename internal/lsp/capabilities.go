package lsp

import (
	"slices"

	"go.lsp.dev/protocol"
)

// fixAllKind is the code action kind of "apply every safe fix in the file".
const fixAllKind = protocol.CodeActionKind("source.fixAll.pallas-ls")

// serverName is what initialize reports and what diagnostics carry as source.
const serverName = "pallas-ls"

// clientCaps is the part of the client's capabilities the server acts on,
// read once at initialize so that the rest of the code tests booleans
// instead of walking optional pointers.
type clientCaps struct {
	utf8             bool // positions count bytes, not UTF-16 units
	workDoneProgress bool // window/workDoneProgress/create is allowed
	watchFiles       bool // dynamic registration of didChangeWatchedFiles
	configuration    bool // workspace/configuration requests
	pullDiagnostics  bool // textDocument/diagnostic instead of push
	diagnosticReload bool // workspace/diagnostic/refresh
	markdown         bool // hover content as markdown
	inlayHints       bool // textDocument/inlayHint
	inlayRefresh     bool // workspace/inlayHint/refresh
	codeLensRefresh  bool // workspace/codeLens/refresh
}

func readCaps(c protocol.ClientCapabilities) clientCaps {
	var cc clientCaps
	if g := c.General; g != nil {
		cc.utf8 = slices.Contains(g.PositionEncodings, protocol.PositionEncodingKindUTF8)
	}
	if w := c.Window; w != nil {
		cc.workDoneProgress = isTrue(w.WorkDoneProgress)
	}
	if ws := c.Workspace; ws != nil {
		cc.configuration = isTrue(ws.Configuration)
		if f := ws.DidChangeWatchedFiles; f != nil {
			cc.watchFiles = isTrue(f.DynamicRegistration)
		}
		if d := ws.Diagnostics; d != nil {
			cc.diagnosticReload = isTrue(d.RefreshSupport)
		}
		if h := ws.InlayHint; h != nil {
			cc.inlayRefresh = isTrue(h.RefreshSupport)
		}
		if l := ws.CodeLens; l != nil {
			cc.codeLensRefresh = isTrue(l.RefreshSupport)
		}
	}
	cc.markdown = true
	if td := c.TextDocument; td != nil {
		cc.pullDiagnostics = td.Diagnostic != nil
		cc.inlayHints = td.InlayHint != nil
		if h := td.Hover; h != nil && len(h.ContentFormat) > 0 {
			cc.markdown = slices.Contains(h.ContentFormat, protocol.MarkupKindMarkdown)
		}
	}
	return cc
}

func isTrue(b *bool) bool { return b != nil && *b }

func ptr[T any](v T) *T { return &v }

// serverCapabilities is the initialize answer, shaped by what the client
// can do: pull diagnostics are announced only to clients that pull.
func serverCapabilities(cc clientCaps) protocol.ServerCapabilities {
	enc := protocol.PositionEncodingKindUTF16
	if cc.utf8 {
		enc = protocol.PositionEncodingKindUTF8
	}
	caps := protocol.ServerCapabilities{
		PositionEncoding: enc,
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: ptr(true),
			Change:    ptr(protocol.TextDocumentSyncKindIncremental),
			Save:      &protocol.SaveOptions{IncludeText: ptr(false)},
		},
		HoverProvider:      protocol.Boolean(true),
		DefinitionProvider: protocol.Boolean(true),
		// Context labels (context.go): both are offered, and the
		// contextLabels setting decides which one answers.
		InlayHintProvider:     protocol.Boolean(true),
		CodeLensProvider:      &protocol.CodeLensOptions{},
		CallHierarchyProvider: protocol.Boolean(true),
		ExecuteCommandProvider: protocol.ExecuteCommandOptions{
			Commands: []string{statusCommand},
		},
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, fixAllKind},
		},
		Workspace: &protocol.WorkspaceOptions{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
				Supported:           ptr(true),
				ChangeNotifications: protocol.Boolean(true),
			},
		},
	}
	if cc.pullDiagnostics {
		caps.DiagnosticProvider = &protocol.DiagnosticOptions{
			Identifier:            ptr(serverName),
			InterFileDependencies: true,
			WorkspaceDiagnostics:  true,
		}
	}
	return caps
}
