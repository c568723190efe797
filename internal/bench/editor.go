package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// editorResult is what the language-server session measured.
type editorResult struct {
	IndexSeconds     float64 `json:"index_seconds"`             // initialized -> end of the indexing $/progress (0: none seen)
	FirstDiagSeconds float64 `json:"first_diagnostics_seconds"` // initialized -> first publishDiagnostics
	// FirstDiagAfterInit runs from sending initialize (the server's
	// start of work) to the first publishDiagnostics.
	FirstDiagAfterInit float64 `json:"first_diagnostics_after_initialize_seconds"`
	ReadySeconds       float64 `json:"ready_seconds"` // initialized -> last publish of the first burst
	RSSAfterIndexMB    float64 `json:"rss_after_index_mb"`
	OpenSeconds        float64 `json:"open_seconds"` // didOpen of the hot file -> a hover answered from results that include it
	HotFindings        int     `json:"hot_file_findings"`
	Edits              latency `json:"edits"`
	// Anywhere are one-line code edits at random places of the corpus
	// (edits_anywhere.go); AnywhereFast counts those within anywhereFast.
	Anywhere     latency `json:"edits_anywhere"`
	AnywhereFast int     `json:"edits_anywhere_fast"`
	// Tree are the ` + 0` edits of an existing tree (-dir; edits_tree.go);
	// TreeFast counts those within anywhereFast.
	Tree     latency `json:"edits_tree"`
	TreeFast int     `json:"edits_tree_fast"`
	// TreeSamples are those edits one by one, in the order made.
	TreeSamples []treeSample `json:"edits_tree_samples,omitempty"`
	Hover       latency      `json:"hover"`
	HoverEmpty  int          `json:"hover_empty"` // hovers answered with null
	RSSEndMB    float64      `json:"rss_end_mb"`
	PeakRSSMB   float64      `json:"peak_rss_mb"` // VmHWM at the end of the session
	// CPUReadySeconds and CPUEndSeconds are the server's user+sys CPU
	// time when the first diagnostics were in and at the end (tree
	// sessions): their difference, the edits' cost, does not depend on
	// how busy the machine is, as wall latencies do.
	CPUReadySeconds float64 `json:"server_cpu_ready_seconds,omitempty"`
	CPUEndSeconds   float64 `json:"server_cpu_end_seconds,omitempty"`
}

// session is one editor session against `pallas-ls serve`.
type session struct {
	cl      *lspClient
	root    string
	hot     Hot
	uri     string
	text    []string // the hot buffer, line by line
	version int
	diags   []lspDiagnostic // the hot file's newest published set
	timeout time.Duration   // for indexing and requests
	perEdit time.Duration
	res     editorResult
	// labels: the session is a client that shows context labels: it
	// announces inlay hints, and after each edit's results asks for the
	// edited file's hints; hintLatency is then the edit's time to them
	// (labels.go). The edit's own latency does not include them.
	labels      bool
	hintLatency time.Duration
	initStart   time.Time // when initialize was sent
	treeSamples []time.Duration
}

type lspDiagnostic struct {
	Code     any `json:"code"`
	Severity int `json:"severity"`
	Range    struct {
		Start struct{ Line, Character int } `json:"start"`
	} `json:"range"`
}

// runEditor starts the server in root, waits for indexing, opens the hot
// file, measures hovers and then edits.
func runEditor(ctx context.Context, bin, root string, c *Corpus, env []string, o *options, perEdit time.Duration) (*editorResult, error) {
	cl, err := startServer(ctx, bin, root, env)
	if err != nil {
		return nil, err
	}
	defer cl.close()
	s := &session{cl: cl, root: root, hot: c.Hot, timeout: o.timeout, perEdit: perEdit}
	for _, step := range []func(context.Context) error{s.initialize, s.waitIndexed, s.open,
		func(ctx context.Context) error { return s.hovers(ctx, o.edits) },
		func(ctx context.Context) error { return s.edits(ctx, o.edits) },
		func(ctx context.Context) error { return s.editsAnywhere(ctx, c, o.edits) }} {
		if err := step(ctx); err != nil {
			return &s.res, err
		}
	}
	st := procStatus(cl.pid())
	s.res.RSSEndMB, s.res.PeakRSSMB = st["VmRSS"], st["VmHWM"]
	return &s.res, nil
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func uriPath(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Path
	}
	return u
}

func (s *session) initialize(context.Context) error {
	root := fileURI(s.root)
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          root,
		"workspaceFolders": []any{map[string]any{"uri": root, "name": filepath.Base(s.root)}},
		"capabilities": map[string]any{
			"general":   map[string]any{"positionEncodings": []string{"utf-16"}},
			"window":    map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{"configuration": true, "workspaceFolders": true},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": true},
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
				"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
			},
		},
	}
	if s.labels {
		params["capabilities"].(map[string]any)["textDocument"].(map[string]any)["inlayHint"] = map[string]any{}
	}
	s.initStart = time.Now()
	if _, err := s.cl.call("initialize", params, s.timeout); err != nil {
		return err
	}
	return s.cl.notify("initialized", map[string]any{})
}

// procCPU returns a process's user+sys CPU seconds (/proc/<pid>/stat;
// 0 where there is none).
func procCPU(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(raw), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(raw[i+1:])) // from field 3, the state
	if len(f) < 13 {
		return 0
	}
	var ut, st float64
	fmt.Sscan(f[11], &ut) // field 14, utime
	fmt.Sscan(f[12], &st) // field 15, stime
	return (ut + st) / clockTicks
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100

// procStatus reads the memory lines of /proc/<pid>/status, in MB.
func procStatus(pid int) map[string]float64 {
	out := map[string]float64{}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(raw), "\n") {
		k, v, ok := strings.Cut(line, ":")
		var kb float64
		if ok && strings.HasPrefix(k, "Vm") {
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%f kB", &kb); err == nil {
				out[k] = kb / 1024
			}
		}
	}
	return out
}

// publishParams is a textDocument/publishDiagnostics notification.
type publishParams struct {
	URI         string          `json:"uri"`
	Version     *int            `json:"version"`
	Diagnostics []lspDiagnostic `json:"diagnostics"`
}

// progressParams is a $/progress notification.
type progressParams struct {
	Token any `json:"token"`
	Value struct {
		Kind  string `json:"kind"`
		Title string `json:"title"`
	} `json:"value"`
}

// isHot reports whether a publish is for the hot file and records its set.
func (s *session) isHot(ev event) (*publishParams, bool) {
	if ev.method != "textDocument/publishDiagnostics" {
		return nil, false
	}
	var p publishParams
	if json.Unmarshal(ev.params, &p) != nil || uriPath(p.URI) != filepath.Join(s.root, filepath.FromSlash(s.hot.Path)) {
		return &p, false
	}
	s.diags = p.Diagnostics
	return &p, true
}
