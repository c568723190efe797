package analysis_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestTriggersCoverEverySpelling: every way a file can name an API or a
// keyword with a deprecation or removal (each alias, each split between
// the import and the attribute chain, with and without `as`) passes the
// pre-scan's word test, so PAL301 and PAL302 never lose a finding to
// pruning. Each spelling is also checked at the version that reports it,
// so the test cannot pass on spellings the rules ignore.
func TestTriggersCoverEverySpelling(t *testing.T) {
	type target struct {
		spelling string
		keyword  string
		at       lowering.Version
	}
	var targets []target
	when := func(dep, rem lowering.Version) lowering.Version {
		if !rem.IsZero() {
			return rem
		}
		return dep
	}
	spellings := func(canon string) []string {
		out := []string{canon}
		for alias, c := range lowering.Aliases() {
			if c == canon {
				out = append(out, alias)
			}
		}
		return out
	}
	for _, a := range lowering.APIs() {
		if a.Deprecated.IsZero() && a.Removed.IsZero() {
			continue
		}
		for _, s := range spellings(a.Name) {
			targets = append(targets, target{spelling: s, at: when(a.Deprecated, a.Removed)})
		}
	}
	for _, k := range lowering.AllKeywordChanges() {
		for _, s := range spellings(k.Callee) {
			targets = append(targets, target{spelling: s, keyword: k.Keyword, at: when(k.Deprecated, k.Removed)})
		}
	}
	if len(targets) < 30 {
		t.Fatalf("only %d APIs and keywords with a history", len(targets))
	}
	dir := t.TempDir()
	for _, tg := range targets {
		reported := 0
		for i, src := range spellingsOf(tg.spelling, tg.keyword) {
			if !analysis.MayReport(rules.All(), []byte(src)) {
				t.Errorf("%s %s: the pre-scan would skip\n%s", tg.spelling, tg.keyword, src)
			}
			f := analysis.SourceFile{Path: filepath.Join(dir, fmt.Sprintf("m%d.py", i)), Src: []byte(src)}
			res, err := analysis.Check(context.Background(), []analysis.SourceFile{f}, withRules(analysis.Options{JAXVersion: tg.at, NoPrune: true}))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range res.Diagnostics {
				if d.Code == "PAL301" || d.Code == "PAL302" {
					reported++
				}
			}
		}
		if reported == 0 {
			t.Errorf("%s %s: no spelling reported at %s", tg.spelling, tg.keyword, tg.at)
		}
	}
}

// spellingsOf writes files that reference the dotted name q (called with
// keyword kw, if set): imported at every depth, with and without `as`,
// the rest spelled as an attribute chain.
func spellingsOf(q, kw string) []string {
	c := strings.Split(q, ".")
	use := func(chain string) string {
		if kw != "" {
			return "y = " + chain + "(1, " + kw + "=2)\n"
		}
		return "y = " + chain + "\n"
	}
	rest := func(head string, j int) string {
		return strings.Join(append([]string{head}, c[j:]...), ".")
	}
	var out []string
	for j := 1; j < len(c); j++ {
		mod, name := strings.Join(c[:j], "."), c[j]
		out = append(out,
			"from "+mod+" import "+name+"\n"+use(rest(name, j+1)),
			"from "+mod+" import (\n    "+name+" as alias,\n)\n"+use(rest("alias", j+1)),
			"import "+mod+" as m\n"+use(rest("m", j)),
			"import "+mod+"\n"+use(q))
	}
	out = append(out, "import "+q+"\n"+use(q))
	return out
}

// TestTriggersSkipOtherJAXCode: code that uses JAX without naming such an
// API is not parsed for the per-file rules, whatever its comments say.
func TestTriggersSkipOtherJAXCode(t *testing.T) {
	for _, src := range []string{
		"# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND\nimport jax\nx = jax.numpy.repeat(1, 2)\n",
		"import jax\n# from jax.experimental.shard_map import shard_map\nf = jax.jit\n",
		"from jax._src.pjit import reshard\n",       // `pjit` once: not jax._src.pjit.pjit
		"import numpy as np\nx = np.repeat(1, 2)\n", // no jax at all
		"from jax.experimental import pallas as pl\nx = pl.ANYTHING\n",
	} {
		if analysis.MayReport(rules.All(), []byte(src)) {
			t.Errorf("the pre-scan would parse\n%s", src)
		}
	}
	for _, src := range []string{
		// A comment line inside an f-string's braces is code.
		"import jax\nx = f'''\n# {jax.experimental.pallas.tpu.ANY}\n'''\n",
		"from jax._src.pjit import pjit\n",
	} {
		if !analysis.MayReport(rules.All(), []byte(src)) {
			t.Errorf("the pre-scan would skip\n%s", src)
		}
	}
}

// TestSinceTriggersOnlyForAnExactVersion: an API a version does not have
// yet is reported only for an exact version (PAL301), so only then does a
// file that names nothing else (`jax.shard_map`, in most of JAX's own
// tree) need parsing.
func TestSinceTriggersOnlyForAnExactVersion(t *testing.T) {
	src := []byte("import jax\nf = jax.shard_map(g, mesh=m, in_specs=P(), out_specs=P())\n")
	if analysis.MayReportAt(rules.All(), src, false) {
		t.Error("parsed for PAL301 with a default or lower-bound version")
	}
	if !analysis.MayReportAt(rules.All(), src, true) {
		t.Error("skipped with an exact version, where jax.shard_map may not exist yet")
	}
}
