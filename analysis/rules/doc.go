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
package rules
