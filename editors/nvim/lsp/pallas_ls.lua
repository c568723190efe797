-- pallas-ls for Neovim 0.11+ (vim.lsp.config / vim.lsp.enable).
--
-- Put this file on your 'runtimepath' as lsp/pallas_ls.lua (for example
-- ~/.config/nvim/lsp/pallas_ls.lua) and add to init.lua:
--
--   vim.lsp.enable('pallas_ls')
--
-- Settings are optional; the project's pyproject.toml [tool.pallas-ls]
-- (or .pallas-ls.toml) is read either way, and these override it:
--
--   vim.lsp.config('pallas_ls', {
--     settings = { ['pallas-ls'] = { jaxVersion = '0.6', platform = 'tpu', ignore = { 'PAL103' } } },
--   })
--
-- The context labels of kernel calls and shard_maps are inlay hints,
-- turned on for the buffers pallas-ls attaches to. The call hierarchy is
-- Neovim's own (vim.lsp.buf.incoming_calls(), default mapping none), "go to
-- the shard_map" is vim.lsp.buf.definition() on a kernel call, and
--   :lua vim.print(vim.lsp.get_clients({ name = 'pallas_ls' })[1]:request_sync(
--     'workspace/executeCommand', { command = 'pallas-ls.status' }).result)
-- shows the JAX version, platform and why (start_client.lua wraps the same
-- request as :PallasStatus and PallasStatusline()).
return {
  cmd = { 'pallas-ls', 'serve' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', '.pallas-ls.toml', '.git' },
  -- Answered to workspace/configuration (section "pallas-ls") and sent with
  -- workspace/didChangeConfiguration.
  settings = {
    ['pallas-ls'] = {
      jaxVersion = '', -- '' = detect: settings file, then the project's jax pin
      platform = '', -- '' = the settings file's (auto: each kernel's markers); or 'tpu', 'gpu'
      tpuChip = '', -- '' = the settings file's; e.g. 'v5e', 'v6e'
      contextLabels = 'auto', -- 'auto', 'inlayHints', 'codeLens', 'both', 'off'
      select = {},
      ignore = {},
      showInfo = true,
    },
  },
  on_attach = function(_, buf)
    vim.lsp.inlay_hint.enable(true, { bufnr = buf })
  end,
}
