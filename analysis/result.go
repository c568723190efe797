package analysis

// Result is what one Check run produces.
type Result struct {
	// Diagnostics are sorted by file, line, column, code and already
	// filtered by select/ignore, suppressions and ShowInfo.
	Diagnostics []Diagnostic
	// FilesChecked counts the files analysed.
	FilesChecked int
	// KernelCalls describes every kernel call the analysis found, for hovers.
	KernelCalls []KernelCallInfo
	// Suppressed counts findings silenced by `# pallas-ls: ignore[...]`.
	Suppressed int
	// Notes are remarks about the input, not findings: regions that did not
	// parse, a run cut short by its step budget. They never affect the exit
	// code.
	Notes []Diagnostic
	// Incomplete, when set, says why some of the program was not analysed
	// (the step budget was spent; a note says where).
	Incomplete string
	// Platform is the backend the run took for kernels without markers of
	// their own ("tpu", "gpu"), and PlatformReason why ("platform setting",
	// "the workspace imports jax.experimental.pallas.tpu (ops/ring.py) ...",
	// "assumed: ..."); each kernel's own markers come first (platform.go).
	Platform, PlatformReason string
}

// KernelCallInfo is what the analysis knows about one kernel call site,
// shown by the editor's hover.
type KernelCallInfo struct {
	Location
	// Kernel is the kernel function's name ("ring_kernel") or "?" when unknown.
	Kernel string
	// Backend is "tpu", "gpu" or "unknown": what the kernel's own markers say.
	Backend string
	// Target is the backend the rules took it to run on, and why
	// ("tpu: the workspace imports jax.experimental.pallas.tpu (ring.py) ...").
	Target string
	// Communication describes the kernel's inter-device communication in
	// words ("remote DMA with dict device id at ring.py:12"), or "" for a
	// local kernel.
	Communication string
	// Contexts lists the SPMD contexts the call is reached in, each with its
	// witness path, in words.
	Contexts []string
	// Label is the call's context label (labels.go), and Reaches its
	// contexts for navigation, in the order of Contexts.
	Label   string
	Reaches []ReachInfo
}
