package config

import (
	"strings"
	"testing"
)

func TestPlatformOfRequirement(t *testing.T) {
	for req, want := range map[string]string{
		"jax[tpu]":                               "tpu",
		"jax[tpu]==0.6.2":                        "tpu",
		"JAX [TPU] >= 0.5; python_version>'3.9'": "tpu",
		"libtpu==0.0.21":                         "tpu",
		"libtpu-nightly":                         "tpu",
		"jax[cuda12]":                            "gpu",
		"jax[cuda12_pip]>=0.4.30":                "gpu",
		"jax[tpu,cuda12]":                        "gpu", // GPU wins: unmarked kernels may run there
		"jax[rocm]":                              "gpu",
		"jax-cuda12-plugin[with_cuda]":           "gpu",
		"jax_triton":                             "gpu",
		"jaxlib==0.4.30+cuda12.cudnn89":          "gpu",
		"jax":                                    "",
		"jax==0.4.35":                            "",
		"jaxlib":                                 "",
		"jaxtyping":                              "",
		"tpu-info":                               "",
		"torch[cuda]":                            "",
		"-r other.txt":                           "",
	} {
		if got := platformOf(req); got != want {
			t.Errorf("platformOf(%q) = %q, want %q", req, got, want)
		}
	}
}

func TestPlatformPin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
		why   string // a substring of the reason
	}{
		{"nothing", map[string]string{"requirements.txt": "jax==0.6.2\n"}, "", ""},
		{"requirements tpu", map[string]string{"requirements.txt": "jax[tpu]==0.6.2\n"}, "tpu", "`jax[tpu]==0.6.2` in ROOT/requirements.txt"},
		{"included libtpu", map[string]string{"requirements.txt": "-r reqs/tpu.txt\n", "reqs/tpu.txt": "libtpu\n"},
			"tpu", "`libtpu` in ROOT/reqs/tpu.txt"},
		{"pyproject optional groups, GPU wins", map[string]string{PyProject: "[project]\nname = \"p\"\n" +
			"[project.optional-dependencies]\ntpu = [\"jax[tpu]\"]\ncuda = [\"jax[cuda12]\"]\n"},
			"gpu", "`jax[cuda12]` in ROOT/pyproject.toml [project] optional-dependencies cuda"},
		{"poetry extras", map[string]string{PyProject: "[tool.poetry.dependencies]\njax = { version = \"^0.6\", extras = [\"tpu\"] }\n"},
			"tpu", "`jax[tpu]` in ROOT/pyproject.toml [tool.poetry.dependencies]"},
		{"requirements beside pyproject", map[string]string{PyProject: "[project]\nname = \"p\"\n", "requirements-gpu.txt": "jax-triton\n"},
			"gpu", "`jax-triton` in ROOT/requirements-gpu.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, tc.files)
			vc, err := DetectJAXVersion(root, "")
			if err != nil {
				t.Fatal(err)
			}
			if vc.Pin.Platform != tc.want || !strings.Contains(vc.Pin.Reason, strings.ReplaceAll(tc.why, "ROOT", root)) {
				t.Errorf("pin = %+v, want %q with %q", vc.Pin, tc.want, tc.why)
			}
			c, _ := LoadFor(root)
			o, err := c.Options(vc)
			if err != nil || o.ProjectPlatform != tc.want || o.ProjectPlatformReason != vc.Pin.Reason {
				t.Errorf("Options: %q %q, %v", o.ProjectPlatform, o.ProjectPlatformReason, err)
			}
		})
	}
}
