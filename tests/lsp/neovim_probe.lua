-- Run inside `nvim --headless` on a file with a known finding, after the init.lua of
-- docs/editors.md started `inwards server` (tests/lsp/test_neovim.py). It waits for the
-- diagnostics, asks for the code actions on the first one, applies the suppression quick
-- fix, hovers the rule code that fix wrote, and writes what Neovim saw as JSON to the file
-- named by INWARDS_PROBE_OUT before quitting.
local WAIT_MS = 30000
local seen = { client_names = {}, diagnostics = {}, actions = {} }

local function finish()
  local out = assert(io.open(assert(os.getenv("INWARDS_PROBE_OUT")), "w"))
  out:write(vim.json.encode(seen))
  out:close()
  vim.cmd("qa!")
end

local ok, problem = pcall(function()
  seen.got_diagnostics = vim.wait(WAIT_MS, function()
    return #vim.diagnostic.get(0) > 0
  end, 50)
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = 0 })) do
    table.insert(seen.client_names, client.name)
  end
  local found = vim.diagnostic.get(0)
  for _, diagnostic in ipairs(found) do
    table.insert(seen.diagnostics, {
      line = diagnostic.lnum,
      col = diagnostic.col,
      code = diagnostic.code,
      source = diagnostic.source,
      severity = vim.diagnostic.severity[diagnostic.severity],
      message = diagnostic.message,
    })
  end
  if #found == 0 then
    return
  end

  -- The quick fixes, asked as vim.lsp.buf.code_action() asks: the range of the finding and
  -- the finding itself in the context.
  local lsp_diagnostic = found[1].user_data.lsp
  local client = vim.lsp.get_clients({ bufnr = 0, name = "inwards" })[1]
  local answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", {
    textDocument = vim.lsp.util.make_text_document_params(0),
    range = lsp_diagnostic.range,
    context = { diagnostics = { lsp_diagnostic } },
  }, WAIT_MS)
  local suppress = nil
  for _, answer in pairs(answers or {}) do
    for _, action in ipairs(answer.result or {}) do
      table.insert(seen.actions, action.title)
      if action.title:find("^Suppress") then
        suppress = action
      end
    end
  end
  if suppress == nil then
    return
  end

  -- Apply it, then hover the rule code it wrote into the comment.
  vim.lsp.util.apply_workspace_edit(suppress.edit, client.offset_encoding)
  local row = found[1].lnum
  local line = vim.api.nvim_buf_get_lines(0, row, row + 1, true)[1]
  seen.suppressed_line = line
  local code_at = line:find(found[1].code, line:find("#", 1, true), true)
  local hovers = vim.lsp.buf_request_sync(0, "textDocument/hover", {
    textDocument = vim.lsp.util.make_text_document_params(0),
    position = { line = row, character = code_at },
  }, WAIT_MS)
  for _, answer in pairs(hovers or {}) do
    if answer.result then
      seen.hover = answer.result.contents.value
    end
  end
end)
if not ok then
  seen.error = tostring(problem)
end
finish()
