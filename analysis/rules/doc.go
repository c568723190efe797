// Package rules holds pallas-ls's rules, one small file each, with their
// user documentation inline. All lists them: the front ends hand that set
// to every check (analysis.Options.Analyzers); nothing registers itself.
//
// Data flow: analysis builds the program and the kernel-call facts; each
// rule reads them from its Pass and reports Diagnostics with fixes. Rules
// never parse or read files, and report at their default severity, except
// what code with no caller in the workspace gets: an info hint (PAL101,
// PAL103) or a conditional warning (PAL104's library axis names,
// pal104_library.go).
//
// The pallas_call configuration rules (PAL211-PAL216, kernelconfig.go)
// judge one kernel call at a time; those that run through eachConfig
// (PAL211, PAL212, PAL215, PAL216) get a call's findings back from the
// last report while its fact stands (analysis.Pass.CallMemo), so such a
// check may read only the call, the JAX version and the TPU chip.
package rules
