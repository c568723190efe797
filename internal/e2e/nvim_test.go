package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNeovimQuickFix opens a fixture in headless Neovim with the shipped
// start_client.lua, waits for PAL101, asks for code actions at it, applies
// the "Ignore PAL101 for this line" quick fix and waits for the diagnostic
// to disappear. It fails (rather than skips) under CI when nvim is missing.
func TestNeovimQuickFix(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim is not installed; scripts/test installs Debian's neovim")
		}
		t.Skip("nvim not installed")
	}
	root := repoRoot(t)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "pallas-ls"), "./cmd/pallas-ls")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	proj := t.TempDir()
	writeFixture(t, proj)
	out := filepath.Join(t.TempDir(), "result")
	script := filepath.Join(t.TempDir(), "e2e.lua")
	if err := os.WriteFile(script, []byte(luaScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean",
		"-c", "luafile "+filepath.Join(root, "editors", "nvim", "start_client.lua"),
		"-c", "luafile "+script)
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"E2E_FILE="+filepath.Join(proj, "ring.py"), "E2E_OUT="+out, "HOME="+t.TempDir())
	log, runErr := cmd.CombinedOutput()
	res, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(res), "OK") {
		t.Fatalf("neovim end-to-end failed: %s (nvim: %v)\n%s", res, runErr, log)
	}
	t.Log(string(res))
	fixed, _ := os.ReadFile(filepath.Join(proj, "ring.py"))
	if !strings.Contains(string(fixed), "# pallas-ls: ignore[PAL101]") {
		t.Errorf("the quick fix did not reach the file:\n%s", fixed)
	}
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

func writeFixture(t *testing.T, dir string) {
	files := map[string]string{
		"pyproject.toml": "[tool.pallas-ls]\njax-version = \"0.11\"\n",
		"ring.py": `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    right = (jax.lax.axis_index("x") + 1) % jax.lax.axis_size("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": right})
    copy.start()
    copy.wait()


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


if __name__ == "__main__":
    ring(jnp.ones((8, 128)))
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// luaScript runs inside Neovim; it reports through the file $E2E_OUT.
const luaScript = `
local out = os.getenv('E2E_OUT')
local function finish(status, msg)
  local f = io.open(out, 'w')
  f:write(status .. ' ' .. msg)
  f:close()
  vim.cmd(status == 'OK' and 'qall!' or 'cquit 1')
end
local ok, err = pcall(function()
  vim.cmd('edit ' .. os.getenv('E2E_FILE'))
  local buf = vim.api.nvim_get_current_buf()
  local function pal101()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'PAL101' then return d end
    end
  end
  if not vim.wait(30000, function() return pal101() ~= nil end, 50) then
    return finish('FAIL', 'no PAL101 diagnostic within 30s')
  end
  local d = pal101()
  local lsp = (d.user_data or {}).lsp or {}
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = range,
    context = { diagnostics = { { range = range, message = d.message, code = d.code, severity = d.severity,
                                  source = d.source, data = lsp.data } } },
  }
  local results = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000) or {}
  local chosen, client_id
  for id, r in pairs(results) do
    for _, action in ipairs(r.result or {}) do
      if action.title and action.title:find('Ignore PAL101', 1, true) then chosen, client_id = action, id end
    end
  end
  if not chosen then return finish('FAIL', 'no "Ignore PAL101" code action') end
  if not chosen.edit then
    local resolved = vim.lsp.buf_request_sync(buf, 'codeAction/resolve', chosen, 10000) or {}
    for _, r in pairs(resolved) do if r.result then chosen = r.result end end
  end
  if not chosen.edit then return finish('FAIL', 'code action has no edit') end
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  vim.cmd('write')
  if not vim.wait(30000, function() return pal101() == nil end, 50) then
    return finish('FAIL', 'PAL101 still shown after the quick fix')
  end
  finish('OK', 'PAL101 shown, quick fix applied, diagnostic cleared: ' .. chosen.title)
end)
if not ok then finish('FAIL', 'lua error: ' .. tostring(err)) end
`
