package main

import (
	"fmt"
	"strings"
)

// plain writes modules of ordinary Python (data loading, configuration,
// string handling, metrics) until budget lines are spent. None of them
// imports jax; about one in eight gets a pytest file.
func (g *gen) plain(budget int) {
	spent := 0
	for n := 0; spent < budget; n++ {
		group := plainGroups[n%len(plainGroups)]
		dir := "acme/" + group
		if sub := n / (len(plainGroups) * 12); sub > 0 {
			dir += fmt.Sprintf("/part%d", sub)
		}
		mod := strings.ReplaceAll(dir, "/", ".") + "." + pick(g, nouns) + "s_" + itoa(n)
		target := min(g.fileSize(), max(budget-spent, 40))
		src, fns := g.plainModule(mod, target)
		g.addFile(modPath(mod), src, false)
		spent += strings.Count(src, "\n")
		if n%8 == 3 && spent < budget {
			t := g.plainTest(mod, fns)
			g.addFile("tests/unit/test_"+mod[strings.LastIndex(mod, ".")+1:]+".py", t, false)
			spent += strings.Count(t, "\n")
		}
	}
}

// modPath turns a dotted module name into its file path.
func modPath(mod string) string { return strings.ReplaceAll(mod, ".", "/") + ".py" }

// plainModule writes one module of about target lines and returns the
// str -> str functions it defines.
func (g *gen) plainModule(mod string, target int) (string, []string) {
	w := &pyWriter{}
	imports := g.plainImports(mod)
	w.add(expand(plainHeader, "title", capitalize(pick(g, nouns)), "group", mod))
	for _, im := range imports {
		w.add(fmt.Sprintf("from %s import %s\n", im.module, im.name))
	}
	w.add(plainGlobals)
	var strFns []string
	callee := func() string {
		if len(imports) > 0 && g.chance(0.5) {
			return pick(g, imports).name
		}
		return pick(g, strFns)
	}
	for w.lines < target {
		w.blank()
		if len(strFns) == 0 || g.chance(0.15) {
			name := g.ident()
			w.add(g.annotate(g.strFunction(name), false))
			strFns = append(strFns, name)
			continue
		}
		w.add(g.annotate(g.plainBlock(callee), false))
	}
	for _, fn := range strFns {
		g.strFns = append(g.strFns, importable{mod, fn})
	}
	g.export(mod, strFns[0])
	return w.String(), strFns
}

// plainImports picks up to two str functions from earlier modules.
func (g *gen) plainImports(mod string) []importable {
	var out []importable
	for i := 0; i < 2 && len(g.strFns) > 0; i++ {
		if im := pick(g, g.strFns); im.module != mod && !containsName(out, im.name) {
			out = append(out, im)
		}
	}
	return out
}

func containsName(xs []importable, name string) bool {
	for _, x := range xs {
		if x.name == name {
			return true
		}
	}
	return false
}

// plainBlock is one top-level definition of ordinary code.
func (g *gen) plainBlock(callee func() string) string {
	switch g.r.IntN(12) {
	case 0, 1:
		return g.configClass()
	case 2:
		return expand(loaderTmpl, "Cls", g.className(), "noun", pick(g, nouns), "ext", pick(g, []string{".jsonl", ".json", ".txt"}))
	case 3:
		return expand(metricsTmpl, "Cls", g.className(), "n", itoa(g.between(5, 50)))
	case 4:
		return expand(retryTmpl, "fn", g.ident(), "n", itoa(g.between(2, 6)), "d", itoa(g.between(1, 9)))
	case 5:
		return expand(csvTmpl, "fn", g.ident())
	case 6, 7:
		return expand(pipelineTmpl, "fn", g.ident(), "key", pick(g, nouns), "callee", callee())
	case 8:
		return expand(argsTmpl, "fn", g.ident(), "noun", pick(g, nouns), "n", itoa(g.between(10, 10000)),
			"path", "data/"+pick(g, nouns)+"s")
	case 9:
		return expand(mergeTmpl, "fn", g.ident(), "n", itoa(g.between(16, 1024)), "cached", g.ident())
	case 10:
		return expand(asyncTmpl, "fn", g.ident(), "n", itoa(g.between(2, 32)))
	default:
		return expand(matchTmpl, "fn", g.ident(), "callee", callee())
	}
}

func (g *gen) strFunction(name string) string {
	return expand(strTmpl, "fn", name, "noun", pick(g, nouns), "sep", pick(g, []string{"_", "-", ".", " "}),
		"n", itoa(g.between(3, 12)))
}

// configClass is a dataclass with validation and dict round-trips.
func (g *gen) configClass() string {
	var fields, checks strings.Builder
	for i, n := 0, g.between(3, 8); i < n; i++ {
		name := pick(g, nouns) + "_" + pick(g, []string{"size", "count", "name", "dir", "rate", "limit", "enabled"}) + itoa(i)
		switch g.r.IntN(4) {
		case 0:
			fmt.Fprintf(&fields, "    %s: int = %d\n", name, g.between(0, 4096))
			fmt.Fprintf(&checks, "        if self.%s < 0:\n            raise ValueError(f\"%s must be non-negative, got {self.%s}\")\n", name, name, name)
		case 1:
			fmt.Fprintf(&fields, "    %s: str = %q\n", name, pick(g, nouns)+"/"+pick(g, verbs))
		case 2:
			fmt.Fprintf(&fields, "    %s: float = %d.%d\n", name, g.between(0, 9), g.between(0, 99))
		default:
			fmt.Fprintf(&fields, "    %s: List[str] = dataclasses.field(default_factory=list)\n", name)
		}
	}
	if checks.Len() == 0 {
		checks.WriteString("        return None\n")
	}
	return expand(configTmpl, "Cls", g.className(), "noun", pick(g, nouns), "verb", pick(g, verbs),
		"fields", fields.String(), "checks", checks.String())
}

// plainTest is a pytest module for a plain module.
func (g *gen) plainTest(mod string, fns []string) string {
	w := &pyWriter{}
	w.add("import pytest\n\n")
	w.add(fmt.Sprintf("from %s import %s\n", mod, strings.Join(fns, ", ")))
	for _, fn := range fns {
		w.blank()
		w.add(expand(plainTestTmpl, "fn", fn))
	}
	return w.String()
}
