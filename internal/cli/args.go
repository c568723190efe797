package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// newFlagSet returns a flag set that reports errors to its caller instead
// of printing them and exiting, so every mistake gets our one-line message
// and exit code 2.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseInterspersed parses flags anywhere among the arguments, as users of
// ruff and git expect (`pallas-ls check src --format json`); the standard
// flag package alone stops at the first non-flag. Everything after "--" is
// positional, so a file named "-x.py" can still be checked.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(err)
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// errHelp is returned for -h/--help: not a mistake, the caller prints the
// command's usage on stdout and exits 0.
var errHelp = flag.ErrHelp

// flagError rewords the flag package's messages where they are obscure.
func flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Errorf("unknown flag %s", dashed(name))
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return fmt.Errorf("flag %s needs a value", dashed(name))
	}
	return err
}

// dashed spells a flag the way the help shows it: long flags with two
// dashes (the flag package reports "-format" even when "--format" was typed).
func dashed(name string) string {
	if len(name) > 2 && !strings.HasPrefix(name, "--") {
		return "-" + name
	}
	return name
}

// listFlag is a comma-separated list flag that may also be repeated
// (--select PAL1*,PAL301 or --select PAL1* --select PAL301).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
}

// choice validates an enumerated flag value with a message that lists the
// allowed values.
func choice(flagName, value string, allowed ...string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	return fmt.Errorf("%s: %q is not one of %s", flagName, value, strings.Join(allowed, ", "))
}

// usageFailure prints a one-line error, the command's synopsis and where
// to find more, on stderr, and returns exit code 2.
func usageFailure(e *env, msg, cmd string) int {
	printError(e.stderr, msg)
	if cmd == "" {
		fmt.Fprintln(e.stderr, "usage: pallas-ls <command> [arguments]; run 'pallas-ls help' for the commands.")
		return exitError
	}
	fmt.Fprintf(e.stderr, "usage: %s\nRun 'pallas-ls help %s' for details.\n", synopsis[cmd], cmd)
	return exitError
}

// synopsis is each command's one-line usage.
var synopsis = map[string]string{
	"check":   "pallas-ls check [flags] [PATH ...]",
	"serve":   "pallas-ls serve [--stdio]",
	"explain": "pallas-ls explain CODE",
	"rules":   "pallas-ls rules [--format text|json|markdown]",
	"version": "pallas-ls version",
}

// printError writes one "pallas-ls: ..." line. Messages from the workspace
// package already carry the prefix; it is not doubled.
func printError(w io.Writer, msg string) {
	msg = strings.TrimRight(msg, "\n")
	if !strings.HasPrefix(msg, "pallas-ls: ") {
		msg = "pallas-ls: " + msg
	}
	fmt.Fprintln(w, msg)
}

// printWarning writes one "pallas-ls: warning: ..." line.
func printWarning(w io.Writer, msg string) {
	msg = strings.TrimPrefix(msg, "pallas-ls: ")
	if !strings.HasPrefix(msg, "warning: ") {
		msg = "warning: " + msg
	}
	printError(w, msg)
}
