package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/config"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// settingsSection is the workspace/configuration section the server reads.
const settingsSection = "pallas-ls"

// userSettings are the editor settings (spec.md §7). They play the role of
// the CLI's flags: they override the settings files of the project.
type userSettings struct {
	JAXVersion string   `json:"jaxVersion,omitempty"`
	Select     []string `json:"select,omitempty"`
	Ignore     []string `json:"ignore,omitempty"`
	ShowInfo   *bool    `json:"showInfo,omitempty"`
	// Platform ("auto", "tpu", "gpu") and TPUChip override the settings
	// file's platform and tpu-chip.
	Platform string `json:"platform,omitempty"`
	TPUChip  string `json:"tpuChip,omitempty"`
	// ContextLabels chooses how kernel calls and shard_maps show their
	// context (labels.go): "auto" (inlay hints when the client has them,
	// else code lenses), "inlayHints", "codeLens", "both" or "off".
	ContextLabels string `json:"contextLabels,omitempty"`
}

// settingsKeys are the keys of the section, to recognise it unwrapped.
var settingsKeys = []string{"jaxVersion", "select", "ignore", "showInfo", "platform", "tpuChip", "contextLabels"}

// parseSettings reads settings given either as {"pallas-ls": {...}} (the
// shape of didChangeConfiguration and of most initializationOptions) or as
// the section itself (the shape workspace/configuration answers with). ok
// is false when raw holds nothing usable; a value of the wrong type is an
// error so that the user learns about the typo.
func parseSettings(raw protocol.LSPAny) (userSettings, bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return userSettings{}, false, nil
	}
	var wrapped map[string]json.RawMessage
	if err := json.Unmarshal(raw, &wrapped); err != nil {
		return userSettings{}, false, fmt.Errorf("settings are not an object: %s", truncate(string(raw), 80))
	}
	if inner, ok := wrapped[settingsSection]; ok {
		raw = protocol.LSPAny(inner)
	} else if !hasSettingsKey(wrapped) {
		return userSettings{}, false, nil // someone else's settings
	}
	var us userSettings
	if err := json.Unmarshal(raw, &us); err != nil {
		return userSettings{}, false, fmt.Errorf("settings %q: %v", settingsSection, err)
	}
	if us.ContextLabels != "" && !slices.Contains(labelModes, us.ContextLabels) {
		bad := us.ContextLabels
		us.ContextLabels = ""
		return us, true, fmt.Errorf("settings %q: contextLabels %q is not one of %s (using auto)", settingsSection, bad, strings.Join(labelModes, ", "))
	}
	return us, true, nil
}

func hasSettingsKey(m map[string]json.RawMessage) bool {
	for _, k := range settingsKeys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// over returns s with every field that o sets replaced by o's.
func (s userSettings) over(o userSettings) userSettings {
	if o.JAXVersion != "" {
		s.JAXVersion = o.JAXVersion
	}
	if o.Select != nil {
		s.Select = o.Select
	}
	if o.Ignore != nil {
		s.Ignore = o.Ignore
	}
	if o.ShowInfo != nil {
		s.ShowInfo = o.ShowInfo
	}
	if o.Platform != "" {
		s.Platform = o.Platform
	}
	if o.TPUChip != "" {
		s.TPUChip = o.TPUChip
	}
	if o.ContextLabels != "" {
		s.ContextLabels = o.ContextLabels
	}
	return s
}

// folderOptions computes the engine options for a workspace folder (or
// the directory of a loose file): settings file, then JAX version
// detection, then the editor settings on top, like `check` with flags.
// Select replaces the project's list, Ignore extends it (ruff's
// extend-ignore reading), and info-level hints are shown unless turned off,
// since spec.md §4 reserves them for the editor.
func folderOptions(res *config.Resolver, dir string, us userSettings) (analysis.Options, error) {
	cfg, err := res.For(dir)
	if err != nil {
		return analysis.Options{}, err
	}
	vc, err := res.JAXVersion(cfg, dir, us.JAXVersion)
	if err != nil {
		return analysis.Options{}, err
	}
	if us.JAXVersion != "" {
		vc.Reason = "editor setting pallas-ls.jaxVersion = " + us.JAXVersion
	}
	opts, err := cfg.Options(vc)
	if err != nil {
		return analysis.Options{}, err
	}
	if len(us.Select) > 0 {
		opts.Select = slices.Clone(us.Select)
	}
	opts.Ignore = append(opts.Ignore, us.Ignore...)
	opts.ShowInfo = us.ShowInfo == nil || *us.ShowInfo
	if us.Platform != "" {
		p, ok := config.ParsePlatform(us.Platform)
		if !ok {
			return analysis.Options{}, fmt.Errorf("editor setting pallas-ls.platform: %q is not one of auto, tpu, gpu", us.Platform)
		}
		opts.Platform = p
		if p == "auto" {
			opts.Platform = ""
		}
	}
	if us.TPUChip != "" {
		c, ok := lowering.ParseChip(us.TPUChip)
		if !ok {
			return analysis.Options{}, fmt.Errorf("editor setting pallas-ls.tpuChip: %q is not a TPU chip JAX knows (one of %s)", us.TPUChip, strings.Join(lowering.Chips, ", "))
		}
		opts.TPUChip = c
	}
	return opts, nil
}

// labelModes are the accepted values of contextLabels.
var labelModes = []string{"auto", "inlayHints", "codeLens", "both", "off"}

// labelChannels decides which requests answer with context labels, from
// the setting and what the client can show.
func labelChannels(mode string, cc clientCaps) (hints, lenses bool) {
	switch mode {
	case "inlayHints":
		return true, false
	case "codeLens":
		return false, true
	case "both":
		return true, true
	case "off":
		return false, false
	}
	// auto, and an unknown value (reported when read): inlay hints for
	// clients that announce them, else code lenses (Neovim 0.7 asks for
	// lenses without announcing the capability).
	return cc.inlayHints, !cc.inlayHints
}

// fetchSettings asks the client for the pallas-ls section, unscoped (key
// "") and for each folder. ok is false when the client cannot or did not
// answer: the request runs under the client timeout, its failure is only
// logged, and the caller keeps the settings it had.
func (s *server) fetchSettings(ctx context.Context, dirs []string) (map[string]userSettings, bool) {
	out := map[string]userSettings{}
	if !s.capsSnapshot().configuration {
		return out, false
	}
	items := make([]protocol.ConfigurationItem, len(dirs)+1)
	items[0] = protocol.ConfigurationItem{Section: ptr(settingsSection)}
	for i, d := range dirs {
		items[i+1] = protocol.ConfigurationItem{ScopeURI: ptr(uri.File(d)), Section: ptr(settingsSection)}
	}
	var answers []protocol.LSPAny
	err := s.callClient(ctx, "workspace/configuration", func(ctx context.Context) (err error) {
		answers, err = s.client.Configuration(ctx, &protocol.ConfigurationParams{Items: items})
		return err
	})
	if err != nil {
		return out, false
	}
	for i, a := range answers {
		us, ok, perr := parseSettings(a)
		if perr != nil {
			s.log.warnf("workspace/configuration: %v", perr)
		}
		if !ok || i >= len(items) {
			continue
		}
		key := ""
		if i > 0 {
			key = dirs[i-1]
		}
		out[key] = us
	}
	return out, true
}
