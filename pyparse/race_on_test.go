//go:build race

package pyparse

// race is set by `go test -race`, whose runtime keeps a few MB of its own
// after the first parses (a step, not a growth: TestParseLeaksNothing
// cannot tell it from a leak).
const race = true
