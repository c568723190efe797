package analysis

import (
	"context"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// analyze runs the context analysis over a linked program. Only the
// modules in entries run as entries (their top levels, their tests); the
// others run when an entry imports them (prune.go says which and why).
func analyze(ctx context.Context, prog *program, entries map[string]bool, opts *Options, rs runSettings) *interp {
	in := newInterp(ctx, prog, opts, rs.budget)
	in.inertPrev, in.noInert, in.entries, in.scripts = rs.inertPrev, rs.noInert, entries, rs.scripts
	in.runFrom(cursor{})
	return in
}

// runFrom evaluates the entries from c on, in order: entry modules' top
// levels, tests, configured entry points, library functions. Each entry
// begins with a mark (resume.go), so that a later check can resume at it.
func (in *interp) runFrom(c cursor) {
	if c.phase == phaseModules {
		for i := c.mod; i < len(in.prog.Modules); i++ {
			if m := in.prog.Modules[i]; in.entries[m.Path] {
				in.begin(cursor{phaseModules, i, 0, 0})
				if in.runsAsScript(m) {
					in.runImports(m)
				} else {
					in.runModule(m)
				}
			}
		}
		c = cursor{phase: phaseTests}
	}
	if c.phase == phaseTests {
		if c == (cursor{phase: phaseTests}) || c == testsStart {
			// The state main blocks start in (detached.go).
			in.h.testsStart = len(in.h.marks)
			in.begin(testsStart)
			c = cursor{phase: phaseTests}
		}
		for i := c.mod; i < len(in.prog.Modules); i++ {
			if m := in.prog.Modules[i]; m.Sum != nil && in.entries[m.Path] && (isTestFile(m.Path) || runsTestMain(m.Sum)) {
				in.runTestModule(i, m)
			}
		}
		c = cursor{phase: phaseConfigured}
	}
	if c.phase == phaseConfigured {
		in.runConfiguredEntries(c.mod)
		c = cursor{phase: phaseMains}
	}
	if c.phase == phaseMains {
		in.runMainsFrom(c)
		c = libraryStart
	}
	if c.phase == phaseLibrary {
		in.libraryFrom(c)
	}
}

// methodFrom is the method a class's loop starts at: the cursor's in the
// statement it resumes at, the first otherwise.
func methodFrom(resumed bool, method int) int {
	if resumed {
		return method
	}
	return 0
}

// at is where module i's loop starts: c's statement and method in c's
// module, the beginning in the modules after it.
func (c cursor) at(i int) (stmt, method int) {
	if i == c.mod {
		return c.stmt, c.method
	}
	return 0, 0
}

// runSettings is what a run takes from the engine besides the program.
type runSettings struct {
	budget int
	// inertPrev is the last run's inert-test cache (inert.go); noInert
	// (tests) evaluates inert library functions too.
	inertPrev map[*ir.FuncDef]*funcRefs
	noInert   bool
	// oneShot: keep nothing for resuming (Engine.OneShot).
	oneShot bool
	// scripts are the modules no file imports that run as scripts
	// (prune.go: isScript; detached.go: runScript).
	scripts map[string]bool
}

// entry evaluates fn as an entry point named what.
func (in *interp) entry(m *module, what string, kind ctxKind, fn func()) {
	saved := in.saveTop()
	in.cur = &spmdCtx{Kind: kind}
	in.file = m.Sum
	in.stack = []*frame{{what: what, file: m.Sum, library: strings.HasPrefix(what, "library ")}}
	fn()
	in.restoreTop(saved)
}

// runTests calls pytest-style tests: test_* functions and the test methods
// of Test* classes and unittest.TestCase subclasses, of module mi, m, in
// order, each an entry of its own.
func (in *interp) runTests(mi int, m *module) {
	for j := 0; j < len(m.Sum.Body); j++ {
		st := m.Sum.Body[j]
		switch {
		case st.Kind == ir.StDef && strings.HasPrefix(st.Def.Name, "test"):
			in.begin(cursor{phaseTests, mi, j, 0})
			v := in.globals(m).value(st.Def.Name)
			in.entry(m, "test "+st.Def.Name, testCtx(st.Def), func() { in.call(v, args{opaque: true}, nil) })
		case st.Kind == ir.StClass:
			if cls, ok := in.globals(m).value(st.Class.Name).(*vClass); ok && cls.Def == st.Class && isTestClassValue(cls, 0) {
				in.runTestClass(cursor{phaseTests, mi, j, 0}, m, cls)
			}
		}
	}
}

// runImports runs, in the shared state, the modules that script m
// imports with its module-level import statements, as the top level of
// an entry module that imports them would: a script's own top level runs
// detached (runScript), but the library modules it begins by importing
// are the same modules every entry imports, run once, not once per
// script and again for the tests. What the statements bind is dropped
// (a scratch scope): the script's module does not start here.
func (in *interp) runImports(m *module) {
	if m.Sum == nil {
		return
	}
	scratch := newEnv(nil, m)
	in.atTopLevel(m, func() {
		for _, st := range m.Sum.Body {
			if st.Kind == ir.StImport {
				in.execImport(scratch, st.Import)
			}
		}
	})
}

// runsTestMain reports whether the module runs its tests as a script: a
// main block that calls absltest.main() or unittest.main() (whatever the
// file is named).
func runsTestMain(s *ir.Summary) bool {
	for _, st := range s.Body {
		if st.Main == nil {
			continue
		}
		found := false
		ir.WalkStmts(st.Body, func(b *ir.Stmt) {
			if b.Kind != ir.StExpr || b.Value == nil || b.Value.Kind != ir.ExCall {
				return
			}
			if f := b.Value.X; f.Kind == ir.ExAttr && f.Name == "main" && f.X.Kind == ir.ExName {
				switch f.X.Name {
				case "absltest", "unittest", "googletest":
					found = true
				}
			}
		})
		if found {
			return true
		}
	}
	return false
}

func testCtx(d *ir.FuncDef) ctxKind {
	if d.MocksSPMD {
		return ctxUnknown
	}
	return ctxPlain
}

// isTestClass: pytest collects Test* classes; unittest runs TestCase
// subclasses, and a base outside the workspace named like a test base
// (absltest.TestCase, parameterized.TestCase, a project's FooTestBase or
// BaseTest) is taken for one.
func isTestClass(c *ir.ClassDef) bool {
	if strings.HasPrefix(c.Name, "Test") {
		return true
	}
	for _, b := range c.Bases {
		if (b.Kind == ir.ExAttr || b.Kind == ir.ExName) && testBaseName(b.Name) {
			return true
		}
	}
	return false
}

func testBaseName(n string) bool {
	return strings.HasSuffix(n, "TestCase") || strings.HasSuffix(n, "TestBase") || strings.HasSuffix(n, "Test")
}

// isTestClassValue is isTestClass through workspace bases: a subclass of a
// workspace test class is one.
func isTestClassValue(c *vClass, depth int) bool {
	if isTestClass(c.Def) {
		return true
	}
	if depth > 16 {
		return false
	}
	for _, b := range c.Bases {
		if bc, ok := b.(*vClass); ok && isTestClassValue(bc, depth+1) {
			return true
		}
	}
	return false
}

// testMethod is one test of a class: its own or inherited, at index k (a
// statement of the class body, or past them for an inherited one).
type testMethod struct {
	k    int
	name string
	def  *ir.FuncDef
}

// testMethods lists a test class's test* methods, its own in order, then
// those its workspace bases define and it does not, base by base.
func testMethods(cls *vClass) []testMethod {
	var out []testMethod
	seen := map[string]bool{}
	n := 0
	var walk func(c *vClass, depth int, own bool)
	walk = func(c *vClass, depth int, own bool) {
		if depth > 16 {
			return
		}
		for k, st := range c.Def.Body {
			if st.Kind != ir.StDef || !strings.HasPrefix(st.Def.Name, "test") {
				continue
			}
			idx := k
			if !own {
				idx = len(cls.Def.Body) + n
				n++
			}
			if !seen[st.Def.Name] {
				seen[st.Def.Name] = true
				out = append(out, testMethod{idx, st.Def.Name, st.Def})
			}
		}
		for _, b := range c.Bases {
			if bc, ok := b.(*vClass); ok {
				walk(bc, depth+1, false)
			}
		}
	}
	walk(cls, 0, true)
	return out
}

func (in *interp) runTestClass(at cursor, m *module, cls *vClass) {
	cd := cls.Def
	for _, tm := range testMethods(cls) {
		def := tm.def
		at.method = tm.k
		in.begin(at)
		in.entry(m, "test "+cd.Name+"."+tm.name, testCtx(def), func() {
			inst := &vInstance{Class: cls, Attrs: map[string]value{}}
			for _, setup := range []string{"setUpClass", "setup_class"} {
				if cm, ok := in.classAttr(cls, setup, 0).(*classMethod); ok {
					b := *cm.f
					b.Self = cls
					in.call(&b, args{opaque: true}, nil)
				}
			}
			for _, setup := range []string{"setUp", "setup_method"} {
				if f, ok := in.classAttr(cls, setup, 0).(*vFunc); ok {
					b := *f
					b.Self = inst
					in.call(&b, args{opaque: true}, nil)
				}
			}
			in.call(bindMethod(in.classAttr(cls, tm.name, 0), inst, cls), args{opaque: true}, nil)
		})
	}
}

// runConfiguredEntries calls the `entry-points` of the configuration:
// "pkg.mod.func" or "pkg.mod.Class.method".
func (in *interp) runConfiguredEntries(from int) {
	for qi := from; qi < len(in.opts.EntryPoints); qi++ {
		q := in.opts.EntryPoints[qi]
		in.begin(cursor{phaseConfigured, qi, 0, 0})
		parts := strings.Split(q, ".")
		for i := len(parts) - 1; i > 0; i-- {
			m := in.prog.lookup(strings.Join(parts[:i], "."), "")
			if m == nil || m.Sum == nil {
				continue
			}
			in.entry(m, "entry point "+q, ctxPlain, func() { in.callPath(m, parts[i:]) })
			break
		}
	}
}

func (in *interp) callPath(m *module, path []string) {
	v := in.moduleAttr(m, path[0])
	if len(path) == 2 {
		if cls, ok := v.(*vClass); ok {
			inst := &vInstance{Class: cls, Attrs: map[string]value{}}
			v = bindMethod(in.classAttr(cls, path[1], 0), inst, cls)
		}
	}
	in.call(v, args{opaque: true}, nil)
}

// runLibraryEntries evaluates, in the Unknown context, every module-level
// function and method that no entry reached: library entry points whose
// callers live outside the workspace. Only modules that use Pallas, or
// name a shard_map and a collective (ir.Summary.NamesSPMD: PAL104's
// library warning), are visited: kernel calls nearly always sit in such
// modules, and an
// uncalled function there is run itself, so skipping the rest (most of a
// large repository) costs at most a longer witness path, or an info hint
// for a pallas callable handed to a module that never names Pallas.
// Errors never come from library entries; their findings are info hints,
// and PAL104's warning about an axis name the workspace writes nowhere
// else.
func (in *interp) runLibraryEntries(c cursor) {
	for i := c.mod; i < len(in.prog.Modules); i++ {
		m := in.prog.Modules[i]
		if m.Sum == nil || in.globals(m) == nil || !hasLibraryEntries(m) {
			continue
		}
		stmt, method := c.at(i)
		for j := stmt; j < len(m.Sum.Body); j++ {
			in.runLibraryStmt(cursor{phaseLibrary, i, j, 0}, m, m.Sum.Body[j], methodFrom(j == stmt, method), true)
		}
	}
}

// hasLibraryEntries reports whether module m's uncalled functions run as
// library entries (runLibraryEntries says which modules and why).
func hasLibraryEntries(m *module) bool { return m.Sum.UsesPallas || m.Sum.NamesSPMD }

// runLibraryStmt runs the library entries of m's module-level statement
// st: a function nothing ran, or the methods of a class no entry reached,
// from method from on. With mark, each begins with a mark at at
// (runLibraryEntries); without, they run inside the caller's entry (a
// script's: runScript).
func (in *interp) runLibraryStmt(at cursor, m *module, st *ir.Stmt, from int, mark bool) {
	switch st.Kind {
	case ir.StDef:
		if in.called[st.Def] != 0 {
			return
		}
		if mark {
			in.begin(at)
		}
		v := in.globals(m).value(st.Def.Name)
		if in.skipInert(st.Def, v) {
			return
		}
		in.entry(m, "library function "+st.Def.Name, ctxUnknown, func() { in.callReturned(in.call(v, args{opaque: true}, nil)) })
	case ir.StClass:
		in.runLibraryClass(at, m, st.Class, from, mark)
	}
}

// callReturned calls, with Unknown arguments, the functions a library
// entry returned: a factory such as `def sharded_attention(mesh): return
// jax.jit(jax.shard_map(body, mesh=mesh, ...))` has callers that call what
// it returns, so its body runs where they would run it (the same
// unknown context).
func (in *interp) callReturned(v value) {
	for _, alt := range alts(v) {
		if isCallable(alt) {
			in.call(alt, args{opaque: true}, nil)
		}
	}
}

// skipInert marks an inert library function (inert.go) as run instead of
// running it.
func (in *interp) skipInert(def *ir.FuncDef, v value) bool {
	f, ok := v.(*vFunc)
	if in.noInert || !ok || f.Def != def || len(in.wrapper) > 0 && in.isShardMapWrapper(def) {
		return false // decorated or rebound: run it
	}
	defs, ok := in.inertFunc(f)
	if !ok {
		return false
	}
	for _, d := range defs {
		in.markCalled(d)
	}
	in.countEval(def)
	in.inert++
	if in.h.log != nil {
		in.h.log.inert++
	}
	return true
}

// runLibraryClass runs the methods of class cd that no entry reached,
// from method from on, each an entry of its own with a mark at at (with
// mark; a script's run inside its own entry: runScript).
func (in *interp) runLibraryClass(at cursor, m *module, cd *ir.ClassDef, from int, mark bool) {
	cls, ok := in.globals(m).value(cd.Name).(*vClass)
	if !ok {
		return
	}
	for k := from; k < len(cd.Body); k++ {
		st := cd.Body[k]
		if st.Kind != ir.StDef || in.called[st.Def] != 0 {
			continue
		}
		def := st.Def
		if mark {
			at.method = k
			in.begin(at)
		}
		in.entry(m, "library method "+cd.Name+"."+def.Name, ctxUnknown, func() {
			inst, ok := in.instantiate(cls, args{opaque: true}, nil).(*vInstance)
			if ok {
				in.callReturned(in.call(bindMethod(in.classAttr(cls, def.Name, 0), inst, cls), args{opaque: true}, nil))
			}
		})
	}
}
