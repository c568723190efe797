package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit codes (spec.md §1), the same for every output format.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// env is everything a command may touch outside its arguments. Tests build
// one around a temporary directory and buffers, so commands never depend on
// the process's working directory and can run in parallel.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// workDir is absolute: relative PATHs resolve against it and printed
	// paths are relative to it.
	workDir string
	getenv  func(string) string
	// stdoutTTY reports whether stdout is a terminal (color is only
	// used then).
	stdoutTTY bool
	// version is the tool version printed by `version` and in reports.
	version buildVersion
}

// Main runs one pallas-ls command and returns the process exit code. It
// never panics on user input: every problem becomes a message on stderr and
// exit code 2.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "pallas-ls: cannot determine the working directory: %v\n", err)
		return exitError
	}
	e := &env{
		stdin: stdin, stdout: stdout, stderr: stderr,
		workDir: wd, getenv: os.Getenv,
		stdoutTTY: isTerminal(stdout),
		version:   readBuildVersion(),
	}
	return run(ctx, e, args)
}

// isTerminal reports whether w is a character device, which is how a
// terminal looks to a process; pipes and files are not.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// run executes one command. A panic here is a pallas-ls bug, never the
// user's mistake: it becomes exit code 2 with a message asking for a
// report, the stack trace kept below it for that report.
func run(ctx context.Context, e *env, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			printError(e.stderr, fmt.Sprintf("internal error: %v (please report this pallas-ls bug, with the trace below)", r))
			e.stderr.Write(debug.Stack())
			code = exitError
		}
	}()
	return dispatch(ctx, e, args)
}

// dispatch runs the command named by args[0]. `pallas-ls --stdio` is
// accepted as `serve` because some editor clients append --stdio to
// whatever command they are given.
func dispatch(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, mainUsage)
		return exitError
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "check":
		return runCheck(ctx, e, rest)
	case "serve", "--stdio", "-stdio":
		return runServe(ctx, e, rest)
	case "explain":
		return runExplain(e, rest)
	case "rules":
		return runRules(e, rest)
	case "version", "--version", "-version":
		return runVersion(e, rest)
	case "help", "-h", "-help", "--help":
		return runHelp(e, rest)
	}
	msg := fmt.Sprintf("unknown command %q", cmd)
	if strings.HasPrefix(cmd, "-") {
		msg = fmt.Sprintf("unknown flag %s (flags go after the command, e.g. pallas-ls check %s)", cmd, cmd)
	}
	return usageFailure(e, msg, "")
}

const mainUsage = `usage: pallas-ls <command> [arguments]

Static checks for JAX Pallas TPU kernels, in the terminal and in the editor.

Commands:
  check [flags] [PATH ...]   check Python files (default PATH: .)
  serve                      run the language server over stdio (also: --stdio)
  explain CODE               show a rule's documentation
  rules [--format F]         list the rules (F: text, json, markdown)
  version                    print the version
  help [COMMAND]             show this help, or a command's flags

Exit codes: 0 no findings at or above --fail-on, 1 findings, 2 usage,
configuration or internal error, 130 or 143 interrupted (SIGINT, SIGTERM).
`

// runHelp prints the overview, or one command's usage, on stdout: the user
// asked for it, so it is output, not an error.
func runHelp(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stdout, mainUsage)
		return exitOK
	}
	switch args[0] {
	case "check":
		printCheckHelp(e.stdout)
	case "serve":
		fmt.Fprint(e.stdout, serveUsage)
	case "explain":
		fmt.Fprint(e.stdout, explainUsage)
	case "rules":
		fmt.Fprint(e.stdout, rulesUsage)
	case "version":
		fmt.Fprint(e.stdout, versionUsage)
	default:
		return usageFailure(e, fmt.Sprintf("unknown help topic %q", args[0]), "")
	}
	return exitOK
}
