package analysis

import (
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// The lowering-configuration facts rules read (PAL201, PAL204); the
// interpreter gathers them (kconfig.go).

// LoweringConfig is what a kernel call's configuration says.
type LoweringConfig struct {
	// Params is the compiler_params value when it is a constructor call
	// the analysis followed (nil: absent, None, or not known).
	Params *CompilerParams
	// ParamsGiven is set when compiler_params is passed and not None,
	// whether or not its value is known.
	ParamsGiven bool
	// ParamsKeyword is the `compiler_params=` keyword of the kernel's
	// declaration (DeclCall, in DeclFile), when it is written there.
	ParamsKeyword *ir.Keyword
	DeclCall      *ir.Expr
	DeclFile      *ir.Summary
	// BodyBackend is the platform the kernel's own markers say (its entry
	// API, the APIs its body calls, its keywords other than
	// compiler_params): the platform it is lowered for.
	BodyBackend lowering.Backend
	// Barrier is the first pltpu.get_barrier_semaphore() the body reaches
	// (helpers, pl.when, lax.cond branches), nil if none.
	Barrier *Location
	// BodyRead is set when the whole body was read: every callee known,
	// the step budget not spent. Only then does "no barrier" mean none.
	BodyRead bool
}

// CompilerParams is a compiler params constructor call.
type CompilerParams struct {
	Qual string   // the class, as lowering's tables name it
	Call *ir.Expr // the constructor call (in the file that builds it)
	// Opaque: the call has positional or ** arguments, so which keywords
	// it sets is not known.
	Opaque bool
	// CollectiveID is the collective_id keyword, nil when absent or given
	// as a literal None; CollectiveIDKnown is false when its value may be
	// None (not a literal).
	CollectiveID      *ir.Keyword
	CollectiveIDKnown bool
	// IDGiven: a collective_id other than a literal None is given (the
	// keyword, or the "collective_id" key of the dict form, whose Call
	// and CollectiveID are nil).
	IDGiven bool
	// Allow is the literal allow_collective_id_without_custom_barrier (nil
	// when absent); AllowKnown is false when it is not a literal bool.
	Allow      *ir.Keyword
	AllowValue bool
	AllowKnown bool
}
