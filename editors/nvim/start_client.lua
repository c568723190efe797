-- pallas-ls for Neovim 0.7 to 0.10, which lack vim.lsp.config.
--
-- Copy into init.lua, or :luafile it. It starts (or reuses) one pallas-ls
-- per project root when a Python buffer opens. On Neovim 0.11+ prefer
-- lsp/pallas_ls.lua with vim.lsp.enable('pallas_ls').

local settings = {
  ['pallas-ls'] = {
    jaxVersion = '', -- '' = detect: settings file, then the project's jax pin
    select = {},
    ignore = {},
    showInfo = true,
  },
}

-- The nearest directory holding a root marker, else the file's directory.
local function find_root(path)
  local markers = { 'pyproject.toml', '.pallas-ls.toml', '.git' }
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while true do
    for _, marker in ipairs(markers) do
      if vim.loop.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return vim.fn.fnamemodify(path, ':p:h')
    end
    dir = parent
  end
end

local clients = {} -- root -> client id

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'python',
  group = vim.api.nvim_create_augroup('pallas_ls', { clear = true }),
  callback = function(args)
    local name = vim.api.nvim_buf_get_name(args.buf)
    if name == '' then
      return
    end
    local root = find_root(name)
    local id = clients[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client({
        name = 'pallas_ls',
        cmd = { 'pallas-ls', 'serve' },
        root_dir = root,
        workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
        settings = settings,
        init_options = settings['pallas-ls'],
      })
      if not id then
        vim.notify('pallas-ls: could not start `pallas-ls serve`; is it on $PATH?', vim.log.levels.WARN)
        return
      end
      clients[root] = id
    end
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})
