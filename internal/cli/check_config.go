package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/internal/config"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// group is a set of checked files that share settings: the same settings
// file and the same JAX version. Each group is analysed with its own
// options over the whole program (see doc.go).
type group struct {
	cfg     *config.Config
	version config.VersionChoice
	opts    analysis.Options
	files   map[string]bool // absolute paths
	// platform and platformWhy are what the last check of the group took
	// for kernels without markers of their own, for -v.
	platform, platformWhy string
}

// settings decides which group each checked file belongs to.
type settings struct {
	e        *env
	flags    *checkFlags
	explicit *config.Config // --config FILE; nil: the nearest file per directory
	resolver *config.Resolver
	byDir    map[string]*group
	groups   []*group
	warned   map[string]bool // settings files already warned about
	failed   bool            // a settings file could not be used: exit 2
}

// newSettings loads --config FILE when given and warns about the flags'
// unknown rule codes, once per run.
func newSettings(e *env, f *checkFlags) (*settings, error) {
	s := &settings{e: e, flags: f, resolver: config.NewResolver(),
		byDir: map[string]*group{}, warned: map[string]bool{}}
	if f.configFile != "" {
		cfg, err := loadExplicit(absPath(e.workDir, f.configFile))
		if err != nil {
			return nil, fmt.Errorf("--config %s: %w", f.configFile, err)
		}
		s.explicit = cfg
	}
	s.warnCodes("--select", f.selectCodes)
	s.warnCodes("--ignore", f.ignoreCodes)
	return s, nil
}

// loadExplicit loads --config FILE, reporting a missing or unreadable
// file by its bare cause, since the message already names it.
func loadExplicit(path string) (*config.Config, error) {
	if _, err := os.Stat(path); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	}
	return config.Load(path)
}

// discoverOptions makes file discovery honour the same settings files as
// the analysis: the explicit file's excludes, or the nearest file's.
func (s *settings) discoverOptions() workspace.DiscoverOptions {
	o := workspace.DiscoverOptions{WorkDir: s.e.workDir}
	if s.explicit != nil {
		o.Exclude, o.ExcludeBase = s.explicit.Exclude, s.explicit.Dir()
	} else {
		o.ConfigExcludes = s.resolver.ExcludesIn
	}
	return o
}

// assign puts a file into its group. Settings and JAX version are looked up
// once per directory: every file of a directory has the same nearest files.
func (s *settings) assign(file string) error {
	dir := filepath.Dir(file)
	g, ok := s.byDir[dir]
	if !ok {
		var err error
		if g, err = s.groupFor(dir); err != nil {
			return err
		}
		s.byDir[dir] = g
	}
	g.files[file] = true
	return nil
}

// groupFor finds or creates the group of the files in dir. A nearest
// settings file that cannot be used gives the defaults (the resolver
// records why, and reportProblems prints it); only --config FILE is fatal.
func (s *settings) groupFor(dir string) (*group, error) {
	cfg := s.explicit
	if cfg == nil {
		cfg, _ = s.resolver.For(dir)
	}
	vc, err := s.resolver.JAXVersion(cfg, dir, s.flags.jaxVersion)
	if err != nil {
		return nil, err
	}
	for _, g := range s.groups {
		if g.cfg.Path == cfg.Path && g.version == vc {
			return g, nil
		}
	}
	s.warnConfig(cfg)
	opts, err := s.options(cfg, vc)
	if err != nil {
		return nil, err
	}
	g := &group{cfg: cfg, version: vc, opts: opts, files: map[string]bool{}}
	s.groups = append(s.groups, g)
	return g, nil
}

// reportProblems prints what the resolver could not use since the last
// call: a broken settings file is an error (the run goes on with the
// defaults for its files, and exits 2), a refused include a warning.
func (s *settings) reportProblems() {
	for _, p := range s.resolver.Problems() {
		if p.Warning {
			printWarning(s.e.stderr, p.Err.Error())
			continue
		}
		printError(s.e.stderr, p.Err.Error()+" (checking its files with the default settings)")
		s.failed = true
	}
}

// options layers the flags over the settings file: --select replaces the
// file's list, --ignore extends it, as in the language server.
func (s *settings) options(cfg *config.Config, vc config.VersionChoice) (analysis.Options, error) {
	opts, err := cfg.Options(vc)
	if err != nil {
		return opts, err
	}
	if len(s.flags.selectCodes) > 0 {
		opts.Select = slices.Clone([]string(s.flags.selectCodes))
	}
	opts.Ignore = append(opts.Ignore, s.flags.ignoreCodes...)
	opts.ShowInfo = s.flags.showInfo
	opts.Analyzers = rules.All()
	return opts, nil
}

// warnConfig reports, once per settings file, keys this version does not
// know and rule codes that name no rule. Neither is fatal: a newer
// pallas-ls may know them (spec.md §4: unknown is never an error).
func (s *settings) warnConfig(cfg *config.Config) {
	if cfg.Path == "" || s.warned[cfg.Path] {
		return
	}
	s.warned[cfg.Path] = true
	where := workspace.Display(cfg.Path, s.e.workDir)
	table := ""
	if filepath.Base(cfg.Path) == config.PyProject {
		table = " in [tool.pallas-ls]"
	}
	for _, k := range cfg.UnknownKeys {
		printWarning(s.e.stderr, fmt.Sprintf("%s: unknown key %q%s", where, k, table))
	}
	s.warnCodes(where+": select", cfg.Select)
	s.warnCodes(where+": ignore", cfg.Ignore)
	sevCodes := make([]string, 0, len(cfg.Severity))
	for code := range cfg.Severity {
		sevCodes = append(sevCodes, code)
	}
	slices.Sort(sevCodes)
	s.warnCodes(where+": severity", sevCodes)
}

// warnCodes is PAL902 for settings: a code or glob that matches no rule
// selects or ignores nothing, which is almost always a typo.
func (s *settings) warnCodes(where string, codes []string) {
	for _, c := range codes {
		if !matchesAnyRule(c) {
			printWarning(s.e.stderr, fmt.Sprintf("%s: %q names no pallas-ls rule (PAL902; see 'pallas-ls rules')", where, c))
		}
	}
}

// matchesAnyRule reports whether a code glob matches one of the rules,
// with the engine's matching.
func matchesAnyRule(pattern string) bool {
	for _, a := range rules.All() {
		if analysis.MatchCode(pattern, a.Code) {
			return true
		}
	}
	return false
}

// absPath resolves a command-line path against the working directory.
func absPath(workDir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(workDir, p)
}

// jaxVersions is the JAX version shown in reports: the one version used,
// or, when groups differ, each distinct version in group order.
func (s *settings) jaxVersions() string {
	var vs []string
	for _, g := range s.groups {
		if v := g.version.Version.String(); !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	return strings.Join(vs, ", ")
}
