-- A headless run of an editor setup of docs/editors.md in Neovim 0.7.2: prints
-- the diagnostics of the current buffer and the code actions of each, applies
-- the preferred fixes one at a time, and writes the buffer to $OUT (docs/editors.md).
local function show()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    print(string.format('%d:%d: %s: %s [%s]', d.lnum + 1, d.col + 1,
      ({ 'error', 'warning', 'info', 'hint' })[d.severity], d.message, d.code or ''))
  end
end
local function actions(d)
  local client = vim.lsp.get_active_clients()[1]
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(),
    range = { start = { line = d.lnum, character = d.col },
              ['end'] = { line = d.end_lnum, character = d.end_col } },
    -- Neovim 0.7.2 keeps only part of the LSP diagnostic in user_data.
    context = { diagnostics = { vim.tbl_extend('force', d.user_data.lsp or {}, {
      range = { start = { line = d.lnum, character = d.col },
                ['end'] = { line = d.end_lnum, character = d.end_col } },
      message = d.message, severity = d.severity, source = d.source, code = d.code,
    }) } },
  }
  local reply = client.request_sync('textDocument/codeAction', params, 5000, 0)
  return reply and reply.result or {}
end
if not vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50) then
  print('no diagnostics'); vim.cmd('cquit 1')
end
show()
for _, d in ipairs(vim.diagnostic.get(0)) do
  for _, a in ipairs(actions(d)) do
    print(string.format('  line %d: action "%s"%s', d.lnum + 1, a.title,
      a.isPreferred and ' (preferred)' or ''))
  end
end
local progress = true
while progress do
  progress = false
  for _, d in ipairs(vim.diagnostic.get(0)) do
    for _, a in ipairs(actions(d)) do
      if a.isPreferred then
        local before = #vim.diagnostic.get(0)
        vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
        vim.wait(5000, function() return #vim.diagnostic.get(0) ~= before end, 50)
        progress = true
        break
      end
    end
    if progress then break end
  end
end
print('after the preferred fixes:')
show()
vim.cmd('write! ' .. vim.env.OUT)
vim.cmd('qall!')
