package analysis

import "github.com/pallas-ls/pallas-ls/lowering"

// Platform inference (issue 18, item 10). A plain
// `pl.pallas_call(kernel, out_shape=...)` picks its backend when it is
// lowered (jax-errors.md §9), and the SPMD rules hold for Mosaic TPU
// kernels only: Triton and Mosaic GPU kernels are replicated by XLA and
// nothing fails. So each kernel call is taken to run on:
//
//  1. what the kernel's own markers say (pltpu APIs, TPU compiler params,
//     a core mesh; plgpu, pltriton: classify.go), else
//  2. the platform setting (`platform = "tpu" | "gpu"`), else
//  3. the project: any GPU evidence (a jax[cuda*]/jax-cuda/jax-triton
//     requirement, an import of Pallas's GPU modules anywhere in the
//     workspace) makes unmarked kernels GPU, so they stay silent; else TPU
//     evidence (a jax[tpu]/libtpu requirement, an import of pltpu or
//     another TPU module anywhere) makes them TPU; else
//  4. TPU, Pallas's main target, as an assumption: findings on such
//     kernels are warnings at most, worded "on TPU this fails: ...", and
//     `platform = "gpu"` silences them.
//
// The setting comes before the project's evidence, because it is how a
// user corrects an inference (a TPU project with a GPU test helper).

// Target is the backend a kernel call is taken to run on, and why.
type Target struct {
	Backend lowering.Backend // TPU or GPU (never unknown: see Assumed)
	// Assumed: nothing names a platform, TPU is assumed; report at most
	// a warning, conditionally worded.
	Assumed bool
	Reason  string // "the kernel's own markers", "platform setting", ...
}

// TPU reports whether the SPMD and TPU-configuration rules apply.
func (t Target) TPU() bool { return t.Backend == lowering.BackendTPU }

// platformChoice is the target of kernels without markers of their own,
// decided once per run from the options and the pre-scans.
type platformChoice struct {
	Platform string // "tpu" or "gpu"
	Reason   string
	Assumed  bool
}

func (c platformChoice) target() Target {
	b := lowering.BackendTPU
	if c.Platform == "gpu" {
		b = lowering.BackendGPU
	}
	return Target{Backend: b, Assumed: c.Assumed, Reason: c.Reason}
}

// Target is the backend kc runs on: its own markers, else the project's
// platform (ProjectTarget). Rules that only hold on one backend (the SPMD
// rules, the TPU kernel-configuration rules) gate on it, and lower an
// error to a warning when Target.Assumed.
func (p *Pass) Target(kc *KernelCall) Target {
	switch kc.Backend {
	case lowering.BackendTPU:
		return Target{Backend: lowering.BackendTPU, Reason: "the kernel's own markers (Pallas TPU APIs or parameters)"}
	case lowering.BackendGPU:
		return Target{Backend: lowering.BackendGPU, Reason: "the kernel's own markers (Pallas GPU APIs or parameters)"}
	}
	return p.ProjectTarget()
}

// ProjectTarget is the backend of kernels without markers of their own.
func (p *Pass) ProjectTarget() Target {
	if p.Options == nil {
		return platformChoice{Platform: "tpu", Reason: assumedReason, Assumed: true}.target()
	}
	return p.Options.platform.target()
}

const assumedReason = "assumed: nothing in the project names a platform (set platform = \"gpu\" or \"tpu\" in [tool.pallas-ls])"
