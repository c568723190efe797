// Package rules holds pallas-ls's rules, one small file each, with their
// user documentation inline. All lists them: the front ends hand that set
// to every check (analysis.Options.Analyzers); nothing registers itself.
//
// Data flow: analysis builds the program and the kernel-call facts; each
// rule reads them from its Pass and reports Diagnostics with fixes. Rules
// never parse, read files or decide severities beyond their default.
package rules
