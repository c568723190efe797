package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// checkFlags are the flags of `check` (spec.md §1), after validation.
type checkFlags struct {
	format      string
	jaxVersion  string
	selectCodes listFlag
	ignoreCodes listFlag
	failOn      string
	fix         bool
	diff        bool
	unsafeFixes bool
	exitZero    bool
	noCache     bool
	configFile  string
	jobs        int
	cacheDir    string
	showInfo    bool
	verbose     bool
	paths       []string
	// failAt is the least severe severity that fails the run.
	failAt analysis.Severity
}

// define registers the flags on fs. A back-quoted word in a help text is
// the value's name in `pallas-ls help check`.
func (f *checkFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.format, "format", "text", "output `FORMAT`: text, json, sarif or github")
	fs.StringVar(&f.jaxVersion, "jax-version", "", "JAX `VERSION` to check against, X.Y[.Z] (default: settings, the project's jax pin, else "+lowering.Latest.String()+")")
	fs.Var(&f.selectCodes, "select", "only these rules: comma-separated `CODES` or globs such as PAL1* (replaces the settings' select)")
	fs.Var(&f.ignoreCodes, "ignore", "skip these rules: comma-separated `CODES` or globs (added to the settings' ignore)")
	fs.StringVar(&f.failOn, "fail-on", "warning", "exit 1 on findings at or above `SEVERITY`: error, warning or info")
	fs.BoolVar(&f.fix, "fix", false, "apply safe fixes to the files, then report what remains")
	fs.BoolVar(&f.diff, "diff", false, "print the changes --fix would make as a unified diff; write nothing")
	fs.BoolVar(&f.unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, also apply fixes that change behaviour")
	fs.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even with findings (errors still exit 2)")
	fs.BoolVar(&f.noCache, "no-cache", false, "do not read or write the on-disk cache")
	fs.StringVar(&f.configFile, "config", "", "use this settings `FILE` for every checked file instead of the nearest one")
	fs.IntVar(&f.jobs, "jobs", 0, "process up to `N` files in parallel (0: all CPUs)")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "cache `DIR` (default: the user cache directory/pallas-ls)")
	fs.BoolVar(&f.showInfo, "show-info", false, "print info-level hints too (e.g. library kernels without callers)")
	fs.BoolVar(&f.verbose, "verbose", false, "print the settings file, the JAX version and why, and timing on stderr")
	fs.BoolVar(&f.verbose, "v", false, "short for --verbose")
}

// parseCheckFlags parses and validates the arguments of `check`.
func parseCheckFlags(args []string) (*checkFlags, error) {
	f := &checkFlags{}
	fs := newFlagSet("check")
	f.define(fs)
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, err
	}
	f.paths = paths
	return f, f.validate()
}

func (f *checkFlags) validate() error {
	if err := choice("--format", f.format, "text", "json", "sarif", "github"); err != nil {
		return err
	}
	if err := choice("--fail-on", f.failOn, "error", "warning", "info"); err != nil {
		return err
	}
	if f.jobs < 0 {
		return fmt.Errorf("--jobs: %d is negative", f.jobs)
	}
	if f.jaxVersion != "" {
		if _, err := lowering.ParseVersion(f.jaxVersion); err != nil {
			return fmt.Errorf("--jax-version: %v", err)
		}
	}
	f.failAt = failSeverity(f.failOn)
	f.selectCodes = upperCodes(f.selectCodes)
	f.ignoreCodes = upperCodes(f.ignoreCodes)
	return nil
}

// failSeverity maps --fail-on to the least severe failing severity. "info"
// includes hints: both are shown only with --show-info, and the flag's
// promise is "fail on anything shown".
func failSeverity(failOn string) analysis.Severity {
	switch failOn {
	case "error":
		return analysis.SeverityError
	case "info":
		return analysis.SeverityHint
	}
	return analysis.SeverityWarning
}

// upperCodes upper-cases code globs: "pal101" can only mean PAL101.
func upperCodes(codes listFlag) listFlag {
	for i, c := range codes {
		codes[i] = strings.ToUpper(c)
	}
	return codes
}

// printCheckHelp prints the synopsis and the flags, sorted by name, with
// the double dash users type (flag.PrintDefaults shows a single one).
func printCheckHelp(w io.Writer) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "usage: %s\n\nCheck the Python files under each PATH (default .) as one program.\n\nFlags:\n", synopsis["check"])
	fs := newFlagSet("check")
	(&checkFlags{}).define(fs)
	fs.VisitAll(func(fl *flag.Flag) {
		name, usage := flag.UnquoteUsage(fl)
		dash := "--"
		if len(fl.Name) == 1 {
			dash = "-"
		}
		fmt.Fprintf(&b, "  %s\n      %s\n", strings.TrimSpace(dash+fl.Name+" "+name), usage)
	})
	w.Write(b.Bytes())
}
