package analysis

import (
	"fmt"
	"path"
	"strings"

	"github.com/pallas-ls/pallas-ls/lowering"
)

// Options are the settings one Check run uses. Front ends build them from
// flags, config files and editor settings; the engine never reads files or
// the environment for them.
type Options struct {
	// JAXVersion is the version whose behaviour is predicted.
	JAXVersion lowering.Version
	// JAXVersionReason says where JAXVersion came from ("--jax-version",
	// "pyproject.toml [tool.pallas-ls]", "requirements.txt pin", "default").
	JAXVersionReason string
	// Select and Ignore are code globs (PAL1*, PAL301); empty Select means all.
	Select, Ignore []string
	// Severity overrides a rule's default severity by code.
	Severity map[string]Severity
	// ShardMapWrappers are qualified names of project helpers that call
	// shard_map on their first argument.
	ShardMapWrappers []string
	// EntryPoints are qualified names of extra functions to treat as entries.
	EntryPoints []string
	// Platform is the backend kernels without markers of their own target:
	// "tpu", "gpu", or "" (the setting's "auto") to infer it from the project.
	Platform string
	// ProjectPlatform is what the project's dependency files say ("tpu"
	// for a jax[tpu] or libtpu requirement, "gpu" for jax[cuda*] and the
	// like, "" for neither), and ProjectPlatformReason which requirement
	// said it; the front ends read the files (internal/config).
	ProjectPlatform, ProjectPlatformReason string
	// platform is what the run decided for kernels without markers
	// (platform.go); Check sets it from the pre-scans.
	platform platformChoice
	// workspace is every file Check was given, pruned or not
	// (Pass.WrittenInWorkspace); Check sets it.
	workspace []SourceFile
	// TPUChip is the target TPU generation for the chip-dependent checks, in
	// lowering.ParseChip's canonical spelling; "" leaves those checks silent.
	TPUChip string
	// ShowInfo keeps info- and hint-level findings in the result.
	ShowInfo bool
	// NoPrune analyses every file, even those the import pre-scan shows
	// cannot affect a finding (prune.go); the results are the same, only
	// slower. For tests and debugging.
	NoPrune bool
	// Analyzers are the rules the run applies, in any order (package
	// rules: All). With none, a run reports no findings, only notes.
	Analyzers []*Analyzer
	// ReportOnly, when not nil, keeps the report to these files (paths as
	// in the SourceFiles): the whole program is analysed, but only their
	// findings and notes are returned, and the per-file rules run only in
	// them. `check` sets it to a settings group's files, so that a
	// monorepo's groups, rendered from one run (runKey), cost each its own
	// files' per-file rules rather than everyone's.
	ReportOnly map[string]bool
}

// reports says whether the report keeps findings in the file at path.
func (o *Options) reports(path string) bool { return o.ReportOnly == nil || o.ReportOnly[path] }

// key identifies options for caching: two runs with the same key report
// the same. The rules count by identity within a process (same), by code
// and name across processes (a build's rules are fixed, and cache keys
// carry the build's identity).
func (o *Options) key(same bool) string {
	c := *o
	c.Analyzers, c.workspace = nil, nil
	var b strings.Builder
	fmt.Fprintf(&b, "%+v", c)
	for _, a := range sortedByCode(o.Analyzers) {
		if same {
			fmt.Fprintf(&b, "\x00%p", a)
		} else {
			fmt.Fprintf(&b, "\x00%s %s", a.Code, a.Name)
		}
	}
	return b.String()
}

// runKey identifies the options the interpretation reads (configured
// entry points, shard-map wrappers, and NoPrune, which changes what it
// analyses): two runs over the same files with the same runKey take the
// same steps, whatever the rest of the options (the JAX version, the
// platform, the rules, the reasons behind them, ReportOnly), which only
// the report reads. So a run can be rendered again for other options
// (reuse.go), as `check` does for each settings group of a monorepo.
func (o *Options) runKey() string {
	return fmt.Sprintf("%q\x00%q\x00%v", o.EntryPoints, o.ShardMapWrappers, o.NoPrune)
}

// SourceFile is one Python file handed to the engine.
type SourceFile struct {
	Path string // absolute, cleaned
	Src  []byte
}

// enabled reports whether opts select the rule with this code: Select
// empty or matching it, and no Ignore pattern matching it.
func enabled(code string, opts *Options) bool {
	sel := len(opts.Select) == 0
	for _, p := range opts.Select {
		sel = sel || MatchCode(p, code)
	}
	for _, p := range opts.Ignore {
		if MatchCode(p, code) {
			return false
		}
	}
	return sel
}

// sameBytes is bytes.Equal that answers at once for the same slice, the
// usual case of a file an editor session did not touch.
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return string(a) == string(b)
}

// MatchCode reports whether a code matches a pattern such as PAL101 or
// PAL1* (a path.Match glob; the pattern's case does not matter), as
// select, ignore and suppressions match codes.
func MatchCode(pattern, code string) bool {
	ok, err := path.Match(strings.ToUpper(pattern), code)
	return err == nil && ok
}

// ExactVersion reports whether JAXVersion is the one the code runs with (a
// flag, a setting, an exact pin), not a lower bound or the default, either
// of which may be older than the JAX actually installed.
func (o *Options) ExactVersion() bool {
	r := o.JAXVersionReason
	switch {
	case r == "", strings.HasPrefix(r, "--jax-version"), strings.HasPrefix(r, "jax-version in"):
		return true
	case strings.HasPrefix(r, "jax pin `"):
		pin := strings.SplitN(r[len("jax pin `"):], "`", 2)[0]
		return strings.Contains(pin, "==") && !strings.ContainsAny(pin, "*<>~!,")
	}
	return false
}
