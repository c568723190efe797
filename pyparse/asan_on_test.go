//go:build asan

package pyparse

// asan is set by `go test -asan`, whose quarantine keeps freed memory.
const asan = true
