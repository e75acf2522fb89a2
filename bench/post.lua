-- bench/post.lua: wrk script for the `submit` scenario of bench/run.sh.
--
-- Every request is a POST of the same urlencoded body, read once from the
-- file named by SUBMIT_BODY, with the headers an API client sends. The target
-- URL is wrk's command-line URL (run.sh builds it from SUBMIT_PATH).
-- SUBMIT_HEADERS may add headers, one "Name: value" per line (a cookie, a
-- CSRF token); run.sh's curl probe sends the same ones.
--
--   SUBMIT_BODY=body.txt wrk -t1 -c32 -d8s --latency -s bench/post.lua URL

local path = os.getenv("SUBMIT_BODY")
if path == nil or path == "" then
   error("post.lua: set SUBMIT_BODY to the file holding the urlencoded body")
end
local file, err = io.open(path, "rb")
if file == nil then
   error("post.lua: cannot open SUBMIT_BODY: " .. tostring(err))
end
local body = file:read("*a")
file:close()

wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Accept"] = "application/json"

local extra = os.getenv("SUBMIT_HEADERS") or ""
for line in extra:gmatch("[^\r\n]+") do
   local name, value = line:match("^%s*([^:%s]+)%s*:%s*(.-)%s*$")
   if name == nil then
      error("post.lua: SUBMIT_HEADERS line is not 'Name: value': " .. line)
   end
   wrk.headers[name] = value
end
-- wrk adds Content-Length from wrk.body. No request()/response() hooks: they
-- would cost wrk Lua work per request and slow the load generator down.
