// Package rules holds pallas-ls's rules, one small file each, with their
// user documentation inline. Each rule registers an analysis.Analyzer at
// init; importing this package (for its side effect) makes every Check
// run them.
//
// Data flow: analysis builds the program and the kernel-call facts; each
// rule reads them from its Pass and reports Diagnostics with fixes. Rules
// never parse, read files or decide severities beyond their default.
package rules
