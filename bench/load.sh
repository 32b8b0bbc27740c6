#!/usr/bin/env bash
# Load test: 60 s at 256 connections of mixed traffic (cached and uncached pages, searches in
# both languages, API calls, unknown ids and bad input) against the server on loopback. It
# passes when no answer is a 5xx and the server logged no error. Usage: bash bench/load.sh
# [DURATION] [CONNECTIONS]; it uses bin/incidentlib (make build) and wrk.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-60s}
conns=${2:-256}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || true

./bin/incidentlib -addr "127.0.0.1:$port" -rate 50 2>"$work/server.log" &
pid=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

cat >"$work/mix.lua" <<'LUA'
local paths = {}
local words = {"DNS", "database", "재시도", "장애가", "certificate expired", "캐시", "BGP", "rm -rf", "\"", "NEAR(", "데이터센터 화재"}
local kinds = {{"cause","config-change"},{"cause","capacity-limit"},{"component","database"},{"component","dns"},{"symptom","full-outage"},{"factor","retry-amplification"},{"org","github"},{"year","2023"}}
local function enc(s)
  return (s:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end
local n = 0
request = function()
  n = n + 1
  local r = n % 12
  local lang = (n % 2 == 0) and "ko" or "en"
  local p
  if r == 0 then p = "/" .. lang .. "/cases/IL-" .. string.format("%04d", (n % 300) + 1)
  elseif r == 1 then local k = kinds[(n % #kinds) + 1]; local k2 = kinds[((n * 7) % #kinds) + 1]
    p = "/" .. lang .. "/?" .. k[1] .. "=" .. k[2] .. "&" .. k2[1] .. "=" .. k2[2] .. "&page=1"
  elseif r == 2 then p = "/" .. lang .. "/?q=" .. enc(words[(n % #words) + 1]) .. "&sort=" .. ((n % 3 == 0) and "newest" or "relevance")
  elseif r == 3 then p = "/api/v1/cases?q=dns&page_size=5"
  elseif r == 4 then p = "/api/v1/cases/IL-0003/similar"
  elseif r == 5 then p = "/" .. lang .. "/cases/IL-9999"
  elseif r == 6 then p = "/" .. lang .. "/?page=abc"
  elseif r == 7 then p = "/" .. lang .. "/graph?cause=software-bug"
  elseif r == 8 then p = "/" .. lang .. "/components/database"
  elseif r == 9 then p = "/" .. lang .. "/?q=outage&x=" .. n
  elseif r == 10 then p = "/cases/IL-0016"
  else p = "/" .. lang .. "/" end
  return wrk.format("GET", p)
end
local threads = {}
function setup(thread) table.insert(threads, thread) end
codes = {}
response = function(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors (socket) connect %d read %d write %d timeout %d\n",
    summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
  io.write(string.format("latency p50 %.1f ms, p99 %.1f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
  -- by status, so deliberate bad input (404, 400), redirects and refusals (429) can be told apart
  local all = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("codes")) do all[k] = (all[k] or 0) + v end
  end
  local groups = {{"200", 200, 200}, {"3xx", 300, 399}, {"400", 400, 400}, {"404", 404, 404}, {"429", 429, 429}, {"other 4xx", 401, 499}, {"5xx", 500, 599}}
  local parts = {}
  for _, g in ipairs(groups) do
    local n = 0
    for k, v in pairs(all) do
      if k >= g[2] and k <= g[3] and not (g[1] == "other 4xx" and (k == 404 or k == 429 or k == 400)) then n = n + v end
    end
    table.insert(parts, g[1] .. " " .. n)
  end
  io.write("answers by status: " .. table.concat(parts, ", ") .. "\n")
end
LUA
# wrk runs the response() counter per thread; one thread keeps the count whole.
wrk -t1 -c"$conns" -d"$duration" --timeout 15s -s "$work/mix.lua" "http://127.0.0.1:$port" | tee "$work/wrk.txt"
status_5xx=$(grep -cE '"status":5[0-9][0-9]' "$work/server.log" || true)
errors=$(grep -c '"level":"ERROR"' "$work/server.log" || true)
rss=$(awk '/VmHWM/ {print $2/1024 " MiB"}' /proc/$pid/status)
echo "load: 5xx answers logged: $status_5xx; ERROR lines in the log: $errors; peak RSS $rss"
if grep -q "Non-2xx" "$work/wrk.txt"; then grep "Non-2xx" "$work/wrk.txt"; fi
[ "$status_5xx" = 0 ] && [ "$errors" = 0 ] || { echo "load: FAILED"; tail -20 "$work/server.log"; exit 1; }
echo "load: passed"
