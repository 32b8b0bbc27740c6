#!/usr/bin/env bash
# bench/edge.sh: the serving edge under load, on the embedded catalog.
#
#  1. Misses must not starve hits: the cached case page alone, then the same page while two
#     clients ask for new search URLs (every request a cache miss), in ROUNDS interleaved pairs
#     of DURATION each; the server pinned to one core. Reports each pair and the median share
#     (req/s under misses / req/s alone) and p50 / p99 of the cached page under misses. Runs
#     with each -render-rate in RENDER_RATES: 20 is the default (the misses' client is refused
#     past its budget), 0 turns the budget off and leaves only the render slots' rest.
#  2. Attack mixes, each beside the cached page as above, with the server's defaults (-rate 20,
#     -render-rate 20, -trusted-proxy 127.0.0.1): "long value" (unknown org= values of 30,000
#     characters, each new), "ipv6" (every request from a new IPv6 /64 through X-Forwarded-For,
#     API and uncached pages), "slow mcp" (200 connections sending /mcp bodies a byte a second).
#     Each reports the cached page's share of its throughput alone, the RSS peak, and how many
#     of 10 uncached pages of another client answered 503 (target: none).
#  3. Memory that is really bounded: RSS of the server through UNIQUE_SECS of unique search URLs
#     at 8 connections (VmRSS sampled every second; the peak and the end are reported).
#
# Usage: bash bench/edge.sh   (needs bin/incidentlib: make build). Env: ROUNDS (3), DURATION (5s),
# UNIQUE_SECS (60), RENDER_RATES ("20 0"), MIXES ("long ipv6 slowmcp").
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/incidentlib}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
UNIQUE_SECS=${UNIQUE_SECS:-60}
[ -x "$BIN" ] || { echo "bench/edge: $BIN is missing: run make build" >&2; exit 1; }
command -v wrk >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# Every request a new search: a counter and a per-thread seed make the words unique.
cat >"$work/unique.lua" <<'LUA'
local n = 0
local seed = 0
function setup(thread) seed = seed + 1; thread:set("seed", seed) end
function init(args) n = 0 end
function request()
  n = n + 1
  return wrk.format("GET", "/en/?q=database+" .. seed .. "x" .. n)
end
LUA

cat >"$work/long.lua" <<'LUA'
local n = 0
local long = string.rep("a", 30000)
function request()
  n = n + 1
  return wrk.format("GET", "/en/?org=" .. long .. n)
end
LUA
cat >"$work/ipv6.lua" <<'LUA'
local n = 0
function request()
  n = n + 1
  local xff = string.format("2001:db8:%x:%x::1", math.floor(n / 65536) % 65536, n % 65536)
  local path = (n % 2 == 0) and ("/api/v1/cases?q=x" .. n) or ("/en/?q=database+v" .. n)
  return wrk.format("GET", path, {["X-Forwarded-For"] = xff})
end
LUA
# slow MCP bodies: CONNS connections that each promise 500 bytes and send one a second
cat >"$work/slowmcp.py" <<'PY'
import socket, sys, time
port, conns, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
socks = []
end = time.time() + secs
def opened():
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Accept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n{")
    return s
while time.time() < end:
    while len(socks) < conns:
        try: socks.append(opened())
        except OSError: time.sleep(0.1); break
    for s in list(socks):
        try: s.send(b" ")
        except OSError: socks.remove(s); s.close()
    time.sleep(1)
PY

port=18190
start() {
  taskset -c 0 "$BIN" -addr 127.0.0.1:$port -rate "${RATE:-0}" -render-rate "${RENDER_RATE:-0}" "$@" 2>"$work/server.log" &
  PID=$!
  for i in $(seq 1 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/readyz)" = 200 ] && return
    sleep 0.1
  done
  echo "server not ready" >&2; exit 1
}
reqs() { awk '/^Requests\/sec/ {print $2}' "$1"; }
lat() { awk -v p="$2" '$1 == p {print $2}' "$1"; }

for RENDER_RATE in ${RENDER_RATES:-20 0}; do
echo "== cached case page alone vs under a miss load, -render-rate $RENDER_RATE (server on core 0, load on core 1)"
start
CASE=http://127.0.0.1:$port/en/cases/IL-0016
curl -s -o /dev/null "$CASE"
shares=()
for r in $(seq 1 "$ROUNDS"); do
  taskset -c 1 wrk -t1 -c16 -d"$DURATION" --latency "$CASE" >"$work/alone.txt"
  taskset -c 1 wrk -t2 -c2 -d"$DURATION" -s "$work/unique.lua" "http://127.0.0.1:$port" >"$work/miss.txt" &
  mp=$!
  taskset -c 1 wrk -t1 -c16 -d"$DURATION" --latency "$CASE" >"$work/under.txt"
  wait $mp
  a=$(reqs "$work/alone.txt"); u=$(reqs "$work/under.txt"); m=$(reqs "$work/miss.txt")
  share=$(awk -v a="$a" -v u="$u" 'BEGIN {printf "%.2f", u / a}')
  shares+=("$share")
  printf 'round %d: alone %9.0f req/s   under misses %9.0f req/s (p50 %s, p99 %s)   share %s   misses %6.0f req/s\n' \
    "$r" "$a" "$u" "$(lat "$work/under.txt" 50%)" "$(lat "$work/under.txt" 99%)" "$share" "$m"
done
median=$(printf '%s\n' "${shares[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
echo "median share of the cached page's throughput kept under the miss load: $median (target >= 0.5)"
kill $PID; wait $PID 2>/dev/null || true
done

rss() { awk '/^VmRSS/ {print int($2/1024)}' /proc/$PID/status; }
# other_client: 10 uncached pages of a client that is not the attacker; prints how many were 503.
other_client() {
  local n503=0 code
  for i in $(seq 1 10); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 15 -H 'X-Forwarded-For: 192.0.2.77' "http://127.0.0.1:$port/en/?q=cache+other$RANDOM$i")
    [ "$code" = 503 ] && n503=$((n503 + 1))
  done
  echo $n503
}
RATE=20 RENDER_RATE=20
for mix in ${MIXES:-long ipv6 slowmcp}; do
  echo "== mix \"$mix\" beside the cached case page (defaults: -rate 20 -render-rate 20, -trusted-proxy 127.0.0.1)"
  start -trusted-proxy 127.0.0.1
  CASE=http://127.0.0.1:$port/en/cases/IL-0016
  curl -s -o /dev/null "$CASE"
  shares=() peak=0 n503=0
  for r in $(seq 1 "$ROUNDS"); do
    taskset -c 1 wrk -t1 -c16 -d"$DURATION" --latency "$CASE" >"$work/alone.txt"
    case $mix in
    long) taskset -c 1 wrk -t1 -c16 -d"$DURATION" -s "$work/long.lua" "http://127.0.0.1:$port" >"$work/mix.txt" & ;;
    ipv6) taskset -c 1 wrk -t1 -c16 -d"$DURATION" -s "$work/ipv6.lua" "http://127.0.0.1:$port" >"$work/mix.txt" & ;;
    slowmcp) taskset -c 1 python3 "$work/slowmcp.py" $port 200 "${DURATION%s}" >"$work/mix.txt" 2>&1 & ;;
    esac
    mp=$!
    taskset -c 1 wrk -t1 -c16 -d"$DURATION" --latency "$CASE" >"$work/under.txt" &
    up=$!
    o=$(other_client)
    n503=$((n503 + o))
    while kill -0 $up 2>/dev/null; do v=$(rss); [ "$v" -gt "$peak" ] && peak=$v; sleep 0.5; done
    wait $mp $up || true
    a=$(reqs "$work/alone.txt"); u=$(reqs "$work/under.txt")
    share=$(awk -v a="$a" -v u="$u" 'BEGIN {printf "%.2f", u / a}')
    shares+=("$share")
    printf 'round %d: alone %9.0f req/s   beside the mix %9.0f req/s (p99 %s)   share %s   other client 503s %d/10\n' \
      "$r" "$a" "$u" "$(lat "$work/under.txt" 99%)" "$share" "$o"
  done
  median=$(printf '%s\n' "${shares[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
  echo "mix $mix: median share $median, RSS peak $peak MiB (target < 300), other client's uncached pages 503: $n503 of $((10 * ROUNDS)) (target 0)"
  kill $PID; wait $PID 2>/dev/null || true
done
RATE=0 RENDER_RATE=0

echo "== RSS through ${UNIQUE_SECS}s of unique search URLs at 8 connections (default -mem-limit)"
start
echo "RSS at start: $(rss) MiB"
taskset -c 1 wrk -t2 -c8 -d"${UNIQUE_SECS}s" -s "$work/unique.lua" "http://127.0.0.1:$port" >"$work/unique.txt" &
wp=$!
peak=0
while kill -0 $wp 2>/dev/null; do
  v=$(rss); [ "$v" -gt "$peak" ] && peak=$v
  sleep 1
done
wait $wp || true
echo "unique URLs: $(reqs "$work/unique.txt") req/s; RSS peak ${peak} MiB, at the end $(rss) MiB (target < 300 MiB)"
