-- pallas-ls for Neovim 0.7 to 0.10, which lack vim.lsp.config.
--
-- Copy into init.lua, or :luafile it. It starts (or reuses) one pallas-ls
-- per project root when a Python buffer opens. On Neovim 0.11+ prefer
-- lsp/pallas_ls.lua with vim.lsp.enable('pallas_ls').
--
-- What it adds besides diagnostics, hovers and code actions:
--   * context labels at every kernel call and shard_map: inlay hints on
--     Neovim 0.10+, code lenses (above the line) before that;
--   * :PallasCallers  how the kernel call under the cursor is reached (the
--     call hierarchy, in the quickfix list);
--   * :PallasShardMap go to the shard_map (or jit) that makes its context;
--   * :PallasStatus   the JAX version, platform and why; the same text is
--     PallasStatusline() for 'statusline', e.g.
--       vim.o.statusline = '%f %= %{v:lua.PallasStatusline()}'

local settings = {
  ['pallas-ls'] = {
    jaxVersion = '', -- '' = detect: settings file, then the project's jax pin
    platform = '', -- '' = the settings file's (auto: each kernel's markers); or 'tpu', 'gpu'
    tpuChip = '', -- '' = the settings file's; e.g. 'v5e', 'v6e'
    contextLabels = 'auto', -- 'auto', 'inlayHints', 'codeLens', 'both', 'off'
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
local status_text = {} -- client id -> status line text

local function pallas_client(buf)
  -- buf_get_clients is Neovim 0.7's spelling; 0.8+ filters get_active_clients.
  local attached = vim.lsp.buf_get_clients and vim.lsp.buf_get_clients(buf)
    or vim.lsp.get_active_clients({ bufnr = buf })
  for _, c in pairs(attached) do
    if c.name == 'pallas_ls' then
      return c
    end
  end
end

-- Asks the server which JAX version and platform the buffer is checked
-- for; cb gets the decoded answer (or nil and an error).
local function request_status(buf, cb)
  local client = pallas_client(buf)
  if not client then
    return cb(nil, 'pallas-ls is not attached to this buffer')
  end
  client.request('workspace/executeCommand', {
    command = 'pallas-ls.status',
    arguments = { vim.uri_from_bufnr(buf) },
  }, function(err, result)
    if err or not result then
      return cb(nil, err and err.message or 'no answer')
    end
    status_text[client.id] = string.format('JAX %s · %s', result.jaxVersion, result.platform)
    cb(result)
  end, buf)
end

function _G.PallasStatusline()
  local client = pallas_client(vim.api.nvim_get_current_buf())
  return client and status_text[client.id] or ''
end

-- Context labels follow the findings: refresh the lenses when the
-- buffer's diagnostics change and when it is entered or written.
local function attach_labels(buf, client)
  if vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = buf })
    return
  end
  if not client.server_capabilities.codeLensProvider then
    return
  end
  local group = vim.api.nvim_create_augroup('pallas_ls_lens_' .. buf, { clear = true })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost', 'DiagnosticChanged' }, {
    group = group,
    buffer = buf,
    callback = function()
      vim.lsp.codelens.refresh()
    end,
  })
  vim.lsp.codelens.refresh()
end

vim.api.nvim_create_user_command('PallasStatus', function()
  request_status(vim.api.nvim_get_current_buf(), function(st, err)
    if not st then
      return vim.notify('pallas-ls: ' .. err, vim.log.levels.WARN)
    end
    vim.notify(string.format('%s: JAX %s (%s); platform %s (%s)%s; labels %s',
      st.server, st.jaxVersion, st.jaxVersionReason, st.platform, st.platformReason,
      st.tpuChip ~= '' and ('; TPU ' .. st.tpuChip) or '', st.contextLabels))
  end)
end, { desc = 'pallas-ls: JAX version, platform and why' })

vim.api.nvim_create_user_command('PallasCallers', function()
  vim.lsp.buf.incoming_calls()
end, { desc = 'pallas-ls: how the kernel call under the cursor is reached' })

vim.api.nvim_create_user_command('PallasShardMap', function()
  vim.lsp.buf.definition()
end, { desc = 'pallas-ls: go to the shard_map or jit of the kernel call under the cursor' })

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
        on_attach = function(client, buf)
          attach_labels(buf, client)
          request_status(buf, function() end)
        end,
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
