package analysis_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// The platform of kernels without markers: setting, then the project's GPU
// evidence, then its TPU evidence, then TPU assumed (target.go).
func TestPlatformChoice(t *testing.T) {
	const kernel = "import jax\nfrom jax.experimental import pallas as pl\n\n" +
		"def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n\n" +
		"def f(x):\n    return pl.pallas_call(k, out_shape=x)(x)\n\nf(jax.numpy.ones((8, 128)))\n"
	for _, tc := range []struct {
		name            string
		other           string // a second file's source
		setting         string
		pin, pinWhy     string
		want, why       string
		assumed, target string
	}{
		{name: "nothing", want: "tpu", why: "assumed: nothing in the project names a platform", target: "tpu: assumed"},
		{name: "pltpu import", other: "from jax.experimental.pallas import tpu as pltpu\n",
			want: "tpu", why: "the workspace imports jax.experimental.pallas.tpu (other.py) and nothing of Pallas GPU"},
		{name: "GPU import wins", other: "from jax.experimental.pallas import tpu as pltpu\nimport jax.experimental.pallas.mosaic_gpu as plgpu\n",
			want: "gpu", why: "the workspace imports jax.experimental.pallas.mosaic_gpu (other.py)", target: "gpu: the workspace"},
		{name: "TPU pin", pin: "tpu", pinWhy: "`jax[tpu]` in requirements.txt", want: "tpu", why: "TPU requirement `jax[tpu]` in requirements.txt"},
		{name: "GPU pin beats TPU import", other: "from jax.experimental.pallas import tpu as pltpu\n", pin: "gpu", pinWhy: "`jax[cuda12]` in requirements.txt",
			want: "gpu", why: "GPU requirement `jax[cuda12]` in requirements.txt"},
		{name: "setting beats evidence", other: "from jax.experimental.pallas import triton\n", setting: "tpu", want: "tpu", why: "platform setting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := []analysis.SourceFile{{Path: "/p/main.py", Src: []byte(kernel)}}
			if tc.other != "" {
				files = append(files, analysis.SourceFile{Path: "/p/other.py", Src: []byte(tc.other)})
			}
			opts := analysis.Options{Platform: tc.setting, ProjectPlatform: tc.pin, ProjectPlatformReason: tc.pinWhy, Analyzers: rules.All()}
			res, err := analysis.Check(context.Background(), files, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Platform != tc.want || !strings.HasPrefix(res.PlatformReason, tc.why) {
				t.Errorf("platform %q (%s), want %q (%s)", res.Platform, res.PlatformReason, tc.want, tc.why)
			}
			if len(res.KernelCalls) != 1 || !strings.HasPrefix(res.KernelCalls[0].Target, tc.target) {
				t.Errorf("kernel calls %+v, want one with target %q...", res.KernelCalls, tc.target)
			}
		})
	}
}

// A kernel's own markers come before the project's evidence: in a project
// with Triton kernels, a kernel with TPU compiler params is a TPU kernel.
func TestPlatformKernelMarkersFirst(t *testing.T) {
	src := "import jax\nfrom jax.experimental import pallas as pl\nfrom jax.experimental.pallas import tpu as pltpu\n" +
		"from jax.experimental.pallas import triton as pltriton\nfrom jax.sharding import Mesh, NamedSharding, PartitionSpec as P\n\n" +
		"def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n\n" +
		"def marked(x):\n    return pl.pallas_call(k, out_shape=x, compiler_params=pltpu.CompilerParams())(x)\n\n" +
		"def plain(x):\n    return pl.pallas_call(k, out_shape=x)(x)\n\n" +
		"s = NamedSharding(Mesh(jax.devices(), ('x',)), P('x'))\n" +
		"jax.jit(marked, in_shardings=s)(jax.numpy.ones((8, 128)))\njax.jit(plain, in_shardings=s)(jax.numpy.ones((8, 128)))\n"
	res, err := analysis.Check(context.Background(), []analysis.SourceFile{{Path: "/p/main.py", Src: []byte(src)}},
		analysis.Options{Analyzers: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Platform != "gpu" {
		t.Errorf("platform %q, want gpu", res.Platform)
	}
	var lines []int
	for _, d := range res.Diagnostics {
		if d.Code == "PAL103" {
			lines = append(lines, d.Pos.Line)
		}
	}
	if len(lines) != 1 || lines[0] != 11 {
		t.Errorf("PAL103 at lines %v, want only the marked kernel's (11)", lines)
	}
}
