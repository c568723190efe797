package oracle

import (
	"regexp"
	"strings"
)

var placeholder = regexp.MustCompile(`\{[A-Za-z_ ]+\}`)

// MessageMatches is how a predicted jax_error message is held against the
// message real JAX raised, by the comparison (compare_test.go) and by the
// mutation harness (internal/mutate): the prediction, its {placeholders}
// standing for any text, is a prefix of what JAX said. A bare `assert`
// raises AssertionError with no message: an empty prediction matches only
// that.
func MessageMatches(predicted, actual string) bool {
	if predicted == "" {
		return actual == ""
	}
	var b strings.Builder
	b.WriteString(`(?s)^`)
	last := 0
	for _, m := range placeholder.FindAllStringIndex(predicted, -1) {
		b.WriteString(regexp.QuoteMeta(predicted[last:m[0]]))
		b.WriteString(`.*?`)
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(predicted[last:]))
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(actual)
}
