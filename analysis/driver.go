package analysis

import (
	"context"
	"path/filepath"
	"strings"
)

// analyze runs the context analysis over a linked program. Only the
// modules in entries run as entries (their top levels, their tests); the
// others run when an entry imports them (prune.go says which and why).
func analyze(ctx context.Context, prog *Program, entries map[string]bool, opts *Options, rs runSettings) *interp {
	in := newInterp(ctx, prog, opts, rs.budget)
	in.inertPrev, in.noInert = rs.inertPrev, rs.noInert
	for _, m := range prog.Modules {
		if entries[m.Path] {
			in.runModule(m)
		}
	}
	for _, m := range prog.Modules {
		if m.Sum != nil && entries[m.Path] && isTestFile(m.Path) {
			in.runTests(m)
		}
	}
	in.runConfiguredEntries()
	in.runLibraryEntries()
	return in
}

// runSettings is what a run takes from the engine besides the program.
type runSettings struct {
	budget int
	// inertPrev is the last run's inert-test cache (inert.go); noInert
	// (tests) evaluates inert library functions too.
	inertPrev map[*FuncDef]*funcRefs
	noInert   bool
}

func isTestFile(path string) bool {
	b := filepath.Base(path)
	return strings.HasPrefix(b, "test_") && strings.HasSuffix(b, ".py") || strings.HasSuffix(b, "_test.py") || b == "conftest.py"
}

// entry evaluates fn as an entry point named what.
func (in *interp) entry(m *Module, what string, kind CtxKind, fn func()) {
	saved := in.saveTop()
	in.cur = &Ctx{Kind: kind}
	in.file = m.Sum
	in.stack = []*frame{{what: what, file: m.Sum, library: strings.HasPrefix(what, "library ")}}
	fn()
	in.restoreTop(saved)
}

// runTests calls pytest-style tests: test_* functions and the test methods
// of Test* classes and unittest.TestCase subclasses.
func (in *interp) runTests(m *Module) {
	for _, st := range m.Sum.Body {
		switch {
		case st.Kind == StDef && strings.HasPrefix(st.Def.Name, "test"):
			v := m.env.value(st.Def.Name)
			in.entry(m, "test "+st.Def.Name, testCtx(st.Def), func() { in.call(v, args{opaque: true}, nil) })
		case st.Kind == StClass && isTestClass(st.Class):
			in.runTestClass(m, st.Class)
		}
	}
}

func testCtx(d *FuncDef) CtxKind {
	if d.MocksShardMap {
		return CtxUnknown
	}
	return CtxPlain
}

func isTestClass(c *ClassDef) bool {
	if strings.HasPrefix(c.Name, "Test") {
		return true
	}
	for _, b := range c.Bases {
		if b.Kind == ExAttr && strings.HasSuffix(b.Name, "TestCase") || b.Kind == ExName && strings.HasSuffix(b.Name, "TestCase") {
			return true
		}
	}
	return false
}

func (in *interp) runTestClass(m *Module, cd *ClassDef) {
	cls, ok := m.env.value(cd.Name).(*vClass)
	if !ok {
		return
	}
	for _, st := range cd.Body {
		if st.Kind != StDef || !strings.HasPrefix(st.Def.Name, "test") {
			continue
		}
		def := st.Def
		in.entry(m, "test "+cd.Name+"."+def.Name, testCtx(def), func() {
			inst := &vInstance{Class: cls, Attrs: map[string]Value{}}
			for _, setup := range []string{"setUp", "setup_method"} {
				if f, ok := in.classAttr(cls, setup, 0).(*vFunc); ok {
					b := *f
					b.Self = inst
					in.call(&b, args{opaque: true}, nil)
				}
			}
			in.call(bindMethod(in.classAttr(cls, def.Name, 0), inst, cls), args{opaque: true}, nil)
		})
	}
}

// runConfiguredEntries calls the `entry-points` of the configuration:
// "pkg.mod.func" or "pkg.mod.Class.method".
func (in *interp) runConfiguredEntries() {
	for _, q := range in.opts.EntryPoints {
		parts := strings.Split(q, ".")
		for i := len(parts) - 1; i > 0; i-- {
			m := in.prog.lookup(strings.Join(parts[:i], "."), "")
			if m == nil || m.Sum == nil {
				continue
			}
			in.entry(m, "entry point "+q, CtxPlain, func() { in.callPath(m, parts[i:]) })
			break
		}
	}
}

func (in *interp) callPath(m *Module, path []string) {
	v := in.moduleAttr(m, path[0])
	if len(path) == 2 {
		if cls, ok := v.(*vClass); ok {
			inst := &vInstance{Class: cls, Attrs: map[string]Value{}}
			v = bindMethod(in.classAttr(cls, path[1], 0), inst, cls)
		}
	}
	in.call(v, args{opaque: true}, nil)
}

// runLibraryEntries evaluates, in the Unknown context, every module-level
// function and method that no entry reached: library entry points whose
// callers live outside the workspace. Only modules that use Pallas are
// visited: kernel calls nearly always sit in such modules, and an
// uncalled function there is run itself, so skipping the rest (most of a
// large repository) costs at most a longer witness path, or an info hint
// for a pallas callable handed to a module that never names Pallas. Entry
// findings (errors, warnings) never come from library entries.
func (in *interp) runLibraryEntries() {
	for _, m := range in.prog.Modules {
		if m.Sum == nil || m.env == nil || !m.Sum.UsesPallas {
			continue
		}
		for _, st := range m.Sum.Body {
			switch st.Kind {
			case StDef:
				if !in.called[st.Def] {
					v := m.env.value(st.Def.Name)
					if in.skipInert(st.Def, v) {
						continue
					}
					in.entry(m, "library function "+st.Def.Name, CtxUnknown, func() { in.call(v, args{opaque: true}, nil) })
				}
			case StClass:
				in.runLibraryClass(m, st.Class)
			}
		}
	}
}

// skipInert marks an inert library function (inert.go) as run instead of
// running it.
func (in *interp) skipInert(def *FuncDef, v Value) bool {
	f, ok := v.(*vFunc)
	if in.noInert || !ok || f.Def != def || len(in.wrapper) > 0 && in.isShardMapWrapper(def) {
		return false // decorated or rebound: run it
	}
	defs, ok := in.inertFunc(f)
	if !ok {
		return false
	}
	for _, d := range defs {
		in.called[d] = true
	}
	in.evals[def]++
	in.inert++
	return true
}

func (in *interp) runLibraryClass(m *Module, cd *ClassDef) {
	cls, ok := m.env.value(cd.Name).(*vClass)
	if !ok {
		return
	}
	for _, st := range cd.Body {
		if st.Kind != StDef || in.called[st.Def] {
			continue
		}
		def := st.Def
		in.entry(m, "library method "+cd.Name+"."+def.Name, CtxUnknown, func() {
			inst, ok := in.instantiate(cls, args{opaque: true}, nil).(*vInstance)
			if ok {
				in.call(bindMethod(in.classAttr(cls, def.Name, 0), inst, cls), args{opaque: true}, nil)
			}
		})
	}
}
