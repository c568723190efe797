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
--     settings = { ['pallas-ls'] = { jaxVersion = '0.6', ignore = { 'PAL103' } } },
--   })
return {
  cmd = { 'pallas-ls', 'serve' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', '.pallas-ls.toml', '.git' },
  -- Answered to workspace/configuration (section "pallas-ls") and sent with
  -- workspace/didChangeConfiguration.
  settings = {
    ['pallas-ls'] = {
      jaxVersion = '', -- '' = detect: settings file, then the project's jax pin
      select = {},
      ignore = {},
      showInfo = true,
    },
  },
}
