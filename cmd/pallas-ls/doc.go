// Command pallas-ls checks Python code that uses JAX Pallas TPU kernels:
// `pallas-ls check` in a terminal or CI, `pallas-ls serve` for editors.
// main.go only connects the process to internal/cli, where every command
// lives; layers_test.go enforces design.md's dependency direction.
package main
