package analysis

import (
	"path/filepath"
	"strings"

	"github.com/pallas-ls/pallas-ls/lowering"
)

// The engine's half of platform inference (target.go has the order and
// the contract): the project's evidence, read once per run.

// choosePlatform decides the platform of unmarked kernels from the
// setting, the dependency files (opts.ProjectPlatform) and the imports of
// every file (its pre-scan, made whether or not pruning keeps the file).
func choosePlatform(opts *Options, files []SourceFile, scans map[string]cachedScan, root string) platformChoice {
	if opts.Platform == "tpu" || opts.Platform == "gpu" {
		return platformChoice{Platform: opts.Platform, Reason: "platform setting"}
	}
	var tpuFile, tpuMod, gpuFile, gpuMod string
	for _, f := range files {
		c, ok := scans[f.Path]
		if !ok {
			continue
		}
		for _, m := range c.scan.imports {
			switch moduleBackend(m) {
			case lowering.BackendTPU:
				if tpuFile == "" || f.Path < tpuFile {
					tpuFile, tpuMod = f.Path, m
				}
			case lowering.BackendGPU:
				if gpuFile == "" || f.Path < gpuFile {
					gpuFile, gpuMod = f.Path, m
				}
			}
		}
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && root != "" {
			return filepath.ToSlash(r)
		}
		return p
	}
	switch {
	case opts.ProjectPlatform == "gpu":
		return platformChoice{Platform: "gpu", Reason: "GPU requirement " + opts.ProjectPlatformReason}
	case gpuFile != "":
		return platformChoice{Platform: "gpu", Reason: "the workspace imports " + gpuMod + " (" + rel(gpuFile) + ")"}
	case opts.ProjectPlatform == "tpu":
		return platformChoice{Platform: "tpu", Reason: "TPU requirement " + opts.ProjectPlatformReason + " and no GPU evidence"}
	case tpuFile != "":
		return platformChoice{Platform: "tpu", Reason: "the workspace imports " + tpuMod + " (" + rel(tpuFile) + ") and nothing of Pallas GPU"}
	}
	return platformChoice{Platform: "tpu", Reason: assumedReason, Assumed: true}
}

// moduleBackend classifies an imported module name by the backend it
// belongs to (jax-errors.md §9.4).
func moduleBackend(m string) lowering.Backend {
	// Every module below names pallas or is jax_triton: the other imports
	// (nearly all), on every check, skip the comparisons.
	if !strings.Contains(m, "pallas") && !strings.HasPrefix(m, "jax_triton") {
		return lowering.BackendUnknown
	}
	under := func(p string) bool { return m == p || strings.HasPrefix(m, p+".") }
	switch {
	case under("jax.experimental.pallas.mosaic_gpu"), under("jax.experimental.pallas.triton"),
		under("jax.experimental.pallas.gpu"), under("jax._src.pallas.mosaic_gpu"),
		under("jax._src.pallas.triton"), under("jax.experimental.pallas.ops.gpu"), under("jax_triton"):
		return lowering.BackendGPU
	case under("jax.experimental.pallas.tpu"), under("jax.experimental.pallas.tpu_sc"),
		under("jax._src.pallas.mosaic"), under("jax.experimental.pallas.ops.tpu"):
		return lowering.BackendTPU
	}
	return lowering.BackendUnknown
}
