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

// TestNeovimContext opens the fixture in headless Neovim 0.7+ with the
// shipped start_client.lua and checks what the editor shows of the SPMD
// context: the kernel call's label as a code lens (Neovim before 0.10 has
// no inlay hints; later ones get them instead), the call hierarchy through
// the editor's own :PallasCallers (vim.lsp.buf.incoming_calls, into the
// quickfix list) and walked up to the entry, and the status line text.
func TestNeovimContext(t *testing.T) {
	res, _ := runNeovim(t, luaContextScript)
	t.Log(res)
}

// runNeovim runs script in headless Neovim against the fixture project and
// returns its report (which starts with OK) and the project directory.
func runNeovim(t *testing.T, script string) (string, string) {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim is not installed; scripts/test installs Debian's neovim")
		}
		t.Skip("nvim not installed")
	}
	root := repoRoot(t)
	bin := filepath.Dir(buildBinary(t))
	proj := t.TempDir()
	writeFixture(t, proj)
	out := filepath.Join(t.TempDir(), "result")
	file := filepath.Join(t.TempDir(), "e2e.lua")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean",
		"-c", "luafile "+filepath.Join(root, "editors", "nvim", "start_client.lua"),
		"-c", "luafile "+file)
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"E2E_FILE="+filepath.Join(proj, "ring.py"), "E2E_OUT="+out, "HOME="+t.TempDir())
	log, runErr := cmd.CombinedOutput()
	res, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(res), "OK") {
		t.Fatalf("neovim end-to-end failed: %s (nvim: %v)\n%s", res, runErr, log)
	}
	return string(res), proj
}

const luaContextScript = `
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
  local want = 'TPU · communicates on x · outside shard_map'
  local function label()
    if vim.lsp.inlay_hint and vim.lsp.inlay_hint.get then
      for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf })) do
        local l = h.inlay_hint.label
        if type(l) == 'string' and l == want then return 'inlay hint: ' .. l end
      end
      return nil
    end
    for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
      if lens.command and lens.command.title == want then
        return 'code lens on line ' .. (lens.range.start.line + 1) .. ': ' .. lens.command.title
      end
    end
  end
  local tries = 0
  if not vim.wait(30000, function()
    tries = tries + 1
    if tries % 20 == 0 and not (vim.lsp.inlay_hint and vim.lsp.inlay_hint.get) then vim.lsp.codelens.refresh() end
    return label() ~= nil
  end, 50) then
    return finish('FAIL', 'no context label within 30s')
  end
  local shown = label()

  -- The call hierarchy through the editor's own UI: the kernel call is on
  -- line 15 ("return pl.pallas_call(...)").
  vim.api.nvim_win_set_cursor(0, { 15, 14 })
  vim.cmd('PallasCallers')
  if not vim.wait(10000, function() return #vim.fn.getqflist() > 0 end, 50) then
    return finish('FAIL', ':PallasCallers filled no quickfix list')
  end
  local first = vim.fn.getqflist()[1].text
  vim.cmd('cclose')
  vim.api.nvim_set_current_buf(buf)

  -- And walked up to the entry with the client's requests.
  local pos = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 14, character = 14 } }
  local function one(method, params)
    for _, r in pairs(vim.lsp.buf_request_sync(buf, method, params, 10000) or {}) do
      if r.result then return r.result end
    end
  end
  local items = one('textDocument/prepareCallHierarchy', pos)
  if not items or #items ~= 1 then return finish('FAIL', 'prepareCallHierarchy gave no item') end
  local chain, item = { items[1].name }, items[1]
  for _ = 1, 20 do
    local calls = one('callHierarchy/incomingCalls', { item = item })
    if not calls or #calls == 0 then break end
    item = calls[1].from
    table.insert(chain, item.name)
  end
  if not chain[#chain]:find('module top level', 1, true) then
    return finish('FAIL', 'the hierarchy does not end at the entry: ' .. table.concat(chain, ' <- '))
  end

  -- The status line text, from the server's status command.
  vim.cmd('PallasStatus')
  if not vim.wait(10000, function() return PallasStatusline():find('JAX 0.11', 1, true) ~= nil end, 50) then
    return finish('FAIL', 'status line text is ' .. vim.inspect(PallasStatusline()))
  end
  finish('OK', shown .. '; quickfix: ' .. first .. '; hierarchy: ' .. table.concat(chain, ' <- ') ..
    '; status line: ' .. PallasStatusline())
end)
if not ok then finish('FAIL', 'lua error: ' .. tostring(err)) end
`
