package main

import (
	"os"

	"github.com/pallas-ls/pallas-ls/internal/cli"
)

func main() {
	// cli.Run handles Ctrl-C and SIGTERM: the run stops promptly, never
	// leaves a half-written file, and exits 130 or 143.
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
