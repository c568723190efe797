package analysis

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// DESIGN: context inference is an abstract interpreter, run from every
// entry point, over the IR of the whole program.
//
// Lattice. Each expression evaluates to a value (values.go): Unknown at the
// bottom of knowledge, constants, workspace functions with their closures,
// partials, JAX wrappers (shard_map, jit, pmap, pallas callables), meshes.
// Branches whose condition is not static join their bindings into a union
// of at most maxUnion alternatives (then Unknown). A call is evaluated in
// a context (context.go): Plain, ShardMap (with its manual axes), Pmap,
// Kernel (collecting effects) or Unknown.
//
// Entry policy. Concrete entries are module top levels, tests (pytest
// functions and classes, unittest TestCase subclasses through workspace
// bases, with inherited test methods, setUpClass and setUp; in test files
// and in modules whose main block calls absltest/unittest.main()),
// configured entry points and main blocks (`if __name__ == "__main__":`
// at module level, without else: the module run as a script), evaluated
// in the Plain context (a test that mocks shard_map runs in Unknown).
// Only modules that import Pallas, directly or through workspace
// modules, run as entries: no other module can reach a kernel
// (prune.go); so do modules that name shard_map and a collective (PAL104
// needs no kernel); the rest runs when imported. A main block never runs on
// import: it runs after the tests, detached (detached.go), in the state
// the module top levels left, and leaves none behind. So does each test
// module (its tests share their state, in order), but for the widening
// counters, which carry on. Afterwards every module-level
// function and method of a module that uses Pallas which the interpreter
// never called is evaluated once in the Unknown context with Unknown
// arguments: a library entry, whose findings are info hints. A function that cannot reach a kernel (inert.go:
// it reads only plain data, external names away from the kernel-making
// APIs, and functions like it) is marked run instead. Functions handed to wrappers from libraries
// outside the workspace run in Unknown too (the library may shard_map
// them); configured shard-map-wrappers run theirs fully manual.
//
// Termination. A call is memoised on (function, closure, receiver,
// abstract arguments, context key); a call already on the stack with the
// same key returns Unknown (recursion); the stack is bounded by maxStack
// and the whole run by a step budget proportional to the program's size
// (stepBudget), beyond which calls return Unknown and a note says the
// results may be incomplete.
// Every loop body is evaluated once (none over an empty literal), its
// target bound to the join of what the iterable yields. After maxEvalsPerDef distinct calls
// of one function, further calls are widened to one evaluation with
// Unknown arguments; objects are one per creation site. So each function
// is evaluated a bounded number of times per context, and the cost is
// close to linear in program size (measured: internal/bench).
//
// Witness paths. The frames on the stack when a kernel is called form its
// path; per (call site, kernel, context class) the shortest path seen is
// kept.
//
// Re-checking after an edit. An edit that leaves every IR the same apart
// from positions, or changes only what the last run never executed (a
// module it never ran, the body of a function it never called),
// re-renders the last run (reuse.go, ir/trivia.go, ir/deadbody.go). An edit
// that changes only the bodies of functions the run executed resumes it
// (resume.go): every entry before the first one that executed a changed
// body took the same steps and left the same state, which the journal
// restores; the entries from there run again, but for test modules, main
// blocks and library entries that ran none of the changed bodies, whose
// reports are replayed (detached.go). An edit of module-level code resumes from the
// entry that first ran the module (reuse.go firstRun): none before it read
// the file. Any other edit (imports, which modules are entries) runs the
// whole interpretation again, because its state is shared by all entries
// in order: the memo, the widening counters, the allocation-site objects, the
// module globals (a module runs once, inside whichever entry imports it
// first, and sees a cyclic importer half done), which uncalled functions
// become library entries, and the step budget.
//
// Where a full run spends its steps (measured on real code, steps of
// tick): tpu-inference 1.26M steps, of which module top levels 6%, tests
// 78%, library entries 16%, with kernel bodies (kernelEffects) a third
// of all; sglang-jax 1.5M, module top levels 33%, tests 64%. The
// synthetic 300k-line corpus needs 0.28M (0.2M now that inert library
// functions are skipped). Of the function bytes in modules that run, 61%
// (tpu-inference), 68% (sglang-jax) and 34% (jax) belong to functions the
// concrete entries call, 15%, 2% and 18% to functions only library
// entries call, the rest to functions never called (ir/deadbody.go's share).
// Two exact incremental designs were weighed against these figures:
//   - Resume from the first entry that executed what changed (built:
//     resume.go). The gain depends on where the first reader sits: a body
//     first run by a module top level re-runs nearly everything; kernel
//     bodies, first run by tests in path order, about half; library-only
//     bodies, the library phase only. Measured before building it, an
//     edit of an executed body would re-run 41 to 55% of the steps on
//     average; on tpu-inference the median random one-line code edit went
//     from 0.43 s to 0.10 s, no faster at the worst edits.
//   - Isolated tests, not built: each entry (module top level, test,
//     library function) in state of its own (per-entry memo, counters,
//     objects and budget; writes to another entry's objects kept in an
//     overlay; library entries chosen from the union of called sets;
//     kernel-call records merged in entry order and keyed without closure
//     identity; per entry, the files it evaluated and the modules whose
//     globals it read), so that an edit re-runs only the entries that
//     reach the edited file. pytest runs each test on its own, so it is
//     the natural semantics for the 64 to 78% of steps tests take. But
//     without a shared memo each test re-evaluates the wrappers others
//     evaluated: measured by giving each test its own memo, counters and
//     objects, a full run takes 2.6 times the steps on tpu-inference, 1.9
//     on sglang-jax and 1.1 on jax (the findings stay the same; witness
//     paths and info hints change).
//   - Detached test modules (built, 2026-12-03: detached.go): the middle
//     way. Each test module starts from the state the module top levels
//     left and takes its own back (memo, objects and all), but the
//     widening counters carry on, so the cold run costs the same (CPU
//     0.98-1.02x on jax, tpu-inference and sglang-jax; steps +7% and +24%
//     on the latter two) and an edit a test module runs re-runs that
//     module and the others that ran what changed, replaying the rest.

// ctxEvery is how many steps pass between looks at the context (tests
// look at every step).
var ctxEvery = 4096

const (
	maxStack = 48
	// maxScans bounds nested kernel scans (kernelEffects).
	maxScans = 8
	// minBudget and budgetPerByte size the step budget: real code needs
	// 0.06 (jax) to 0.16 (sglang-jax) steps per byte of analysed Python,
	// so the budget leaves three times that before it truncates a run.
	minBudget     = 4_000_000
	budgetPerByte = 0.5
	// maxEvalsPerDef bounds the distinct abstract calls of one function
	// before its arguments are widened to Unknown.
	maxEvalsPerDef = 12
)

type frame struct {
	site *ir.Expr
	file *ir.Summary
	what string
	ctx  *spmdCtx
	// library marks the entry frame of a function no one calls.
	library bool
	// env is the scope of the call at site, for fixes that wrap it.
	env *scope
	// def is the function this frame runs, if it is a workspace function.
	def *ir.FuncDef
}

type interp struct {
	ctx   context.Context
	prog  *program
	opts  *Options
	stack []*frame
	scans int // kernel scans in progress
	// batched counts the vmapped calls in progress: the arrays a kernel
	// sees there are not the ones passed (blockspec.go).
	batched int
	memo    map[string]value
	active  map[string]bool
	// called holds, for each function whose body ran (or counts as run:
	// inert.go), the number of the entry that first ran it (from 1).
	called map[*ir.FuncDef]int32
	evals  map[*ir.FuncDef]int
	// assigned caches, per if statement, the names its branches bind.
	assigned map[*ir.Stmt][]string
	// instances holds one abstract object per creation site.
	instances map[instKey]*vInstance
	// syms holds the symbols of library entries' parameters (symbols.go).
	syms   map[symKey]*vUnknown
	budget int
	calls  map[callSiteKey]*kernelCall
	order  []*kernelCall
	// colls are the collectives on unbound axis names, collOrder in the
	// order met (collective.go).
	colls     map[collKey]*collUse
	collOrder []*collUse
	// smaps are the shard_map applications, smapOrder in the order met
	// (smapply.go).
	smaps     map[smKey]*smUse
	smapOrder []*smUse
	// refs are the eager jax.new_ref calls with a memory space, refOrder
	// in the order met (eagerref.go).
	refs     map[*ir.Expr]*refUse
	refOrder []*refUse
	// smEager says, for each shard_map application being evaluated,
	// innermost last, whether it was applied eagerly (not under tracing).
	smEager []bool
	effects map[*kernelDecl]*kernelEffects
	wrapper map[string]bool
	// cur is the innermost frame's context.
	cur *spmdCtx
	// env is the scope of the call expression being evaluated, so a kernel
	// call can record the meshes visible where it happens (for fixes).
	env *scope
	// file is the file whose code is being evaluated.
	file *ir.Summary
	// ret accumulates the current function's return values.
	ret []value
	// stopped is set when the budget is spent or the check is cancelled;
	// limit is the budget, exhausted says it was spent, and truncated names
	// the entry that was running then.
	stopped   bool
	limit     int
	exhausted bool
	truncated *frame
	// keyBuf is reused to build call keys, keyPins to collect the
	// addresses one quotes; pins keeps those of the memo's keys alive.
	keyBuf  []byte
	keyPins []unsafe.Pointer
	pins    []unsafe.Pointer
	// inert counts the library entries skipped as inert; inertRefs holds
	// what the test read of each function, taken from inertPrev (the last
	// run's) when the function is unchanged (inert.go).
	inert                int
	inertRefs, inertPrev map[*ir.FuncDef]*funcRefs
	noInert              bool
	// entries are the modules that run as entries (prune.go); scripts
	// those of them whose top levels run detached (runScript).
	entries, scripts map[string]bool
	// mods holds each module's run, by module.id.
	mods []modRun
	// config holds the jax.config options the program set, as values
	// (jaxConfigUpdate).
	config map[string]value
	// h is what a later check needs to resume the run (resume.go).
	h history
}

func newInterp(ctx context.Context, prog *program, opts *Options, budget int) *interp {
	in := &interp{
		prog: prog, opts: opts,
		memo: map[string]value{}, called: map[*ir.FuncDef]int32{}, evals: map[*ir.FuncDef]int{}, assigned: map[*ir.Stmt][]string{}, instances: map[instKey]*vInstance{},
		calls: map[callSiteKey]*kernelCall{}, effects: map[*kernelDecl]*kernelEffects{}, colls: map[collKey]*collUse{},
		smaps: map[smKey]*smUse{},
		refs:  map[*ir.Expr]*refUse{}, syms: map[symKey]*vUnknown{},
		wrapper: map[string]bool{}, mods: make([]modRun, prog.nmods), config: map[string]value{},
	}
	for _, w := range opts.ShardMapWrappers {
		in.wrapper[w] = true
	}
	in.newHistory()
	in.restart(ctx, budget)
	return in
}

// restart readies in to run entries in ctx with the step budget budget:
// what newInterp leaves, but for the state the entries run so far made.
func (in *interp) restart(ctx context.Context, budget int) {
	in.ctx, in.limit = ctx, budget
	in.cur, in.env, in.file, in.ret, in.active = nil, nil, nil, nil, map[string]bool{}
	in.stopped, in.exhausted, in.truncated = false, false, nil
}

// modRun is the state of one module's top level in a run.
type modRun struct {
	state modState
	env   *scope // its globals, once it started
}

type modState uint8

const (
	modFresh   modState = iota // not run yet
	modRunning                 // its top level is running (a cyclic importer sees it half done)
	modDone
)

// globals is module m's global globals, nil while it has not run.
func (in *interp) globals(m *module) *scope { return in.mods[m.id].env }

// tick spends one unit of budget; false means stop evaluating.
func (in *interp) tick() bool {
	if in.stopped {
		return false
	}
	in.budget++
	if in.budget > in.limit {
		in.stopped, in.exhausted = true, true
		if len(in.stack) > 0 {
			in.truncated = in.stack[0]
		}
		return false
	}
	if in.budget%ctxEvery == 0 && in.ctx.Err() != nil {
		in.stopped = true
		return false
	}
	return true
}

// stepBudget is the step budget of a run over keptBytes of Python (the
// files pruning keeps, with or without pruning, so that NoPrune changes
// only the work done): linear in it, so a large workspace is not cut short.
func stepBudget(keptBytes int) int {
	return max(minBudget, int(budgetPerByte*float64(keptBytes)))
}

// budgetSpent reports whether the run spent its step budget: where it
// stopped depends on the size of the files.
func (in *interp) budgetSpent() bool { return in.exhausted }

// budgetNote says, when the run spent its step budget, where it stopped:
// what it had not reached yet was not analysed (unknown, never an error).
func (in *interp) budgetNote(sums []*ir.Summary) (Diagnostic, bool) {
	if !in.exhausted || len(sums) == 0 {
		return Diagnostic{}, false
	}
	what, file := "its entries", sums[0]
	if f := in.truncated; f != nil && f.file != nil {
		what, file = f.what, f.file
	}
	return Diagnostic{Code: "note", Severity: SeverityInfo, Location: Locate(file, pp.Span{}),
		Message: fmt.Sprintf("the analysis spent its step budget (%d steps) while running %s; "+
			"what it had not reached was not analysed, so findings may be missing", in.limit, what)}, true
}
