//go:build !asan

package pyparse

const asan = false
