package cli

import (
	"cmp"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/pallas-ls/pallas-ls/lowering"
)

// buildVersion is what the binary knows about itself, from the build
// information the Go toolchain embeds: no version string to bump by hand,
// and `go install ...@v0.1.0` reports v0.1.0 on its own.
type buildVersion struct {
	module    string // "v0.1.0", a pseudo-version, or "(devel)"
	revision  string // VCS commit, when built from a checkout
	time      string // commit time
	modified  bool   // the checkout had uncommitted changes
	goVersion string
}

func readBuildVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return buildVersion{module: "(devel)"}
	}
	return versionFromBuildInfo(bi)
}

func versionFromBuildInfo(bi *debug.BuildInfo) buildVersion {
	v := buildVersion{module: cmp.Or(bi.Main.Version, "(devel)"), goVersion: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.revision = s.Value
		case "vcs.time":
			v.time = s.Value
		case "vcs.modified":
			v.modified = s.Value == "true"
		}
	}
	return v
}

// tool is the version written into JSON and SARIF reports: "0.1.0" for a
// release, without Go's "v".
func (v buildVersion) tool() string {
	return strings.TrimPrefix(cmp.Or(v.module, "(devel)"), "v")
}

// write prints the `version` output: the version on the first line (what
// scripts parse), then the commit and toolchain for bug reports.
func (v buildVersion) write(w io.Writer) {
	fmt.Fprintf(w, "pallas-ls %s\n", v.tool())
	if v.revision != "" {
		rev := v.revision
		if v.modified {
			rev += " (modified)"
		}
		if v.time != "" {
			rev += " " + v.time
		}
		fmt.Fprintf(w, "commit: %s\n", rev)
	}
	if v.goVersion != "" {
		fmt.Fprintf(w, "go: %s\n", v.goVersion)
	}
	fmt.Fprintf(w, "newest JAX version known: %s\n", lowering.Latest)
}

const versionUsage = "usage: pallas-ls version\n\nPrint the pallas-ls version, its commit and the newest JAX version it knows.\n"

func runVersion(e *env, args []string) int {
	if len(args) > 0 {
		if isHelp(args[0]) {
			fmt.Fprint(e.stdout, versionUsage)
			return exitOK
		}
		return usageFailure(e, fmt.Sprintf("version takes no arguments, got %q", args[0]), "version")
	}
	e.version.write(e.stdout)
	return exitOK
}

// isHelp reports whether an argument asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}
