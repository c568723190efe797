//go:build !race

package pyparse

const race = false
