package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/pallas-ls/pallas-ls/internal/lsp"
)

const serveUsage = `usage: pallas-ls serve [--stdio]

Run the language server (LSP) over stdin and stdout; logs go to stderr.
--stdio is accepted, and so is --clientProcessId N, because editor
clients add them; stdio is the only transport.
`

// runServe is the `serve` command: the language server in internal/lsp,
// which runs package rules' set (its default).
func runServe(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("serve")
	fs.Bool("stdio", true, "talk LSP over stdin/stdout")
	fs.Int("clientProcessId", 0, "the editor's process id (ignored)")
	rest, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(e.stdout, serveUsage)
		return exitOK
	case err != nil:
		return usageFailure(e, err.Error(), "serve")
	case len(rest) > 0:
		return usageFailure(e, fmt.Sprintf("serve takes no arguments, got %q", rest[0]), "serve")
	}
	defer startProfile(e)()
	err = lsp.Serve(ctx, e.stdin, e.stdout, e.stderr, lsp.WithVersion(e.version.tool()), lsp.WithToolID(toolID()))
	if err != nil && !errors.Is(err, lsp.ErrNoShutdown) && ctx.Err() == nil {
		printError(e.stderr, err.Error())
	}
	return lsp.ExitCode(err)
}

// startProfile writes a CPU profile of the command to $PALLAS_LS_CPUPROFILE,
// if set: for developers, a whole editor session or check (see README).
// The returned function stops it.
func startProfile(e *env) func() {
	path := e.getenv("PALLAS_LS_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		printWarning(e.stderr, "PALLAS_LS_CPUPROFILE: "+err.Error())
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		printWarning(e.stderr, "PALLAS_LS_CPUPROFILE: "+err.Error())
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// writeHeapProfile writes a heap profile to $PALLAS_LS_MEMPROFILE, if set:
// for developers, taken by check right after the analysis, when the IR of
// every file and the interpreter's state are live (see README). It runs a
// collection first, so that the profile's in-use figures are the live heap
// of that moment.
func writeHeapProfile(e *env) {
	path := e.getenv("PALLAS_LS_MEMPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		printWarning(e.stderr, "PALLAS_LS_MEMPROFILE: "+err.Error())
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		printWarning(e.stderr, "PALLAS_LS_MEMPROFILE: "+err.Error())
	}
}
