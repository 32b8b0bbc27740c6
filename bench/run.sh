#!/usr/bin/env bash
# Benchmarks of the Incident Library server; `make bench` runs this after `make build`.
# See bench/README.md for what is measured and how to read the tables.
#
#   bash bench/run.sh                        # everything: about 8 minutes, 11 the first time
#   BENCH_SIZES="real 10000" bash bench/run.sh
#   BENCH_GO=0 BENCH_DURATION=5s bash bench/run.sh
#
# Everything runs on 127.0.0.1 only, every run is bounded in time, and every process started
# here is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SIZES=${BENCH_SIZES:-"real 10000 100000"}
DURATION=${BENCH_DURATION:-10s}
CONNS=${BENCH_CONNS:-32}
RUN_GO=${BENCH_GO:-1}
CACHE_DIR=${BENCH_CACHE:-${TMPDIR:-/tmp}/ilbench-cache}
BIN=$ROOT/bin/incidentlib

# What is requested. The two filters and the search words are common in the real catalog, and
# the synthetic catalogs reuse its vocabulary and wording; IL-0003 exists in every catalog.
CASE_PATH=/en/cases/IL-0003
declare -A PATHS=(
	[case]=$CASE_PATH
	[list]='/en/?cause=config-change&component=network'
	[search]='/en/?q=database+failure'
	[api]=/api/v1/cases/IL-0003
)
declare -A LABELS=([case]="case page" [list]="listing, 2 filters" [search]="search" [api]="API case")
ENDPOINTS="case list search api"
# Rows with a miss: the API case reads no parameter but lang, so after its first answer every
# request for it is the cache's; the case page's miss renders the same Store.Case.
MISS_ENDPOINTS="case list search"

log() { printf 'bench: %s\n' "$*" >&2; }
die() {
	log "$*"
	exit 1
}

# --- tools ----------------------------------------------------------------------------------
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
command -v taskset >/dev/null || missing+=(util-linux)
if ((${#missing[@]})); then
	if ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
		die "missing ${missing[*]}: install them (Debian: apt-get install ${missing[*]})"
	fi
	log "installing ${missing[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$BIN" ] || die "$BIN is missing: run make build (make bench does)"

# The server and nginx take turns on core 0, wrk runs on core 1. With one core, all share it.
SERVER_CPU=0
LOAD_CPU=1
if [ "$(nproc)" -lt 2 ]; then
	log "one CPU only: server and load generator share it, figures are pessimistic"
	LOAD_CPU=0
fi

# --- temporary files and cleanup ------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ilbench.XXXXXX")
SERVER_PID=
NGINX_PID=
SERVER_LOG=/dev/null
stop() { # stop PID: TERM, then KILL after 5 s
	local pid=$1
	[ -n "$pid" ] || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	for _ in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
cleanup() {
	stop "$SERVER_PID"
	stop "$NGINX_PID"
	SERVER_PID= NGINX_PID=
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The server runs from a copy with a name of its own, so that something stopping other
# "incidentlib" processes by name does not stop it halfway through a run.
SERVER_BIN=$WORK/ilbench-server
cp "$BIN" "$SERVER_BIN"

# free_port prints a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 30000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	die "no free port"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# wait_ready URL PID SECONDS: wait until URL answers 200, the process dies, or time runs out.
wait_ready() {
	local url=$1 pid=$2 deadline=$(($(now_ms) + $3 * 1000))
	until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null || return 1
		[ "$(now_ms)" -lt "$deadline" ] || return 1
		sleep 0.005
	done
}

# kib_of PID FIELD: a memory figure of /proc/PID/status, in KiB.
kib_of() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# alive: is the server still running? If something else stopped it, every figure after this
# would be meaningless.
alive() {
	kill -0 "$SERVER_PID" 2>/dev/null ||
		die "the server stopped during the run: $(grep -v '"msg":"request"' "$SERVER_LOG" | tail -3)"
}

# --- synthetic catalogs ---------------------------------------------------------------------
# Cached by a hash of the code that writes them, so they are rebuilt only when it changes.
catalog_key() {
	cat cmd/gencatalog/*.go internal/catalog/build/*.go internal/catalog/build/schema.sql \
		internal/catalog/text.go data/taxonomy.yaml data/orgs.yaml 2>/dev/null | sha256sum | cut -c1-12
}
catalog_for() { # catalog_for N: prints the path of a synthetic catalog of N cases
	local n=$1 key path t0
	key=$(catalog_key)
	path=$CACHE_DIR/cat$n-$key.db
	if [ ! -s "$path" ]; then
		mkdir -p "$CACHE_DIR"
		rm -f "$CACHE_DIR"/cat"$n"-*.db
		[ -x "$WORK/gencatalog" ] || go build -o "$WORK/gencatalog" ./cmd/gencatalog
		log "building a synthetic catalog of $n cases into $path"
		t0=$(now_ms)
		timeout 900 "$WORK/gencatalog" -n "$n" -out "$path" >&2 || die "gencatalog -n $n failed"
		log "built in $((($(now_ms) - t0) / 1000)) s"
	fi
	echo "$path"
}

# --- measuring ------------------------------------------------------------------------------
# A wrk script that makes every request new to the response cache, so this measures rendering
# from the catalog. The cache keys an answer on the parameters its page reads (it ignores made-up
# ones), so the script varies one that is read: a case page's "from" (the listing to go back
# to), and elsewhere "q": a search gains a word "bench<n>" that no case has (the any-word
# fallback then ranks the other words), a listing gains a search for it.
cat >"$WORK/count.lua" <<'LUA'
-- Counts the answers by status and their sizes, so a row can prove it measured the page it
-- names: done() prints "answers 200:N 429:N ... bytes MIN-MAX". One wrk thread keeps them whole.
local threads = {}
function setup(thread) table.insert(threads, thread) end
codes, minb, maxb = {}, nil, 0
function response(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
  local n = #body
  if minb == nil or n < minb then minb = n end
  if n > maxb then maxb = n end
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    local c, parts = t:get("codes"), {}
    for k, v in pairs(c) do table.insert(parts, k .. ":" .. v) end
    table.sort(parts)
    io.write("answers " .. table.concat(parts, " ") .. " bytes " .. (t:get("minb") or 0) .. "-" .. t:get("maxb") .. "\n")
  end
end
LUA
cat "$WORK/count.lua" >"$WORK/miss.lua"
cat >>"$WORK/miss.lua" <<'LUA'
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, missPath(wrk.path, n))
end
LUA
# missPath, shared with the alone figure below: a URL that no cache has, made by varying one
# parameter the page reads. The cache keys an answer on the parameters its page reads (it
# ignores made-up ones): a case page's "from" (the listing to go back to) and elsewhere "q": a
# search gains a word "bench<n>" that no case has (the any-word fallback then ranks the other
# words), a listing gains a search for it and "network", which its filters' cases name, so the
# any-word fallback lists about the same cases (a word alone would empty the listing).
cat >"$WORK/misspath.lua" <<'LUA'
function missPath(path, n)
  local sep = "?"
  if string.find(path, "?", 1, true) then sep = "&" end
  if string.find(path, "/cases/", 1, true) then
    return path .. sep .. "from=q%3Dbench" .. n
  end
  if string.find(path, "q=", 1, true) then
    return (string.gsub(path, "q=", "q=bench" .. n .. "+", 1))
  end
  return path .. sep .. "q=bench" .. n .. "+network"
end
LUA
cat "$WORK/misspath.lua" "$WORK/miss.lua" >"$WORK/miss2.lua" && mv "$WORK/miss2.lua" "$WORK/miss.lua"

# to_ms: wrk's latency (850.00us, 1.20ms, 2.01s, 1.00m) in milliseconds.
to_ms() {
	awk -v v="$1" 'BEGIN {
		if (v ~ /us$/) { sub(/us$/, "", v); printf "%.2f", v / 1000 }
		else if (v ~ /ms$/) { sub(/ms$/, "", v); printf "%.2f", v }
		else if (v ~ /m$/) { sub(/m$/, "", v); printf "%.0f", v * 60000 }
		else if (v ~ /s$/) { sub(/s$/, "", v); printf "%.0f", v * 1000 }
		else printf "-" }'
}

RESULTS=$WORK/results.tsv
MEMORY=$WORK/memory.tsv
: >"$RESULTS"
: >"$MEMORY"

# load SIZE NAME URL EXPECT [LUA] [ALONE]: run wrk and add "size name rps p50 p99 errors alone
# answers" to RESULTS. EXPECT is the size in bytes of the page the row names: every answer must
# be a 200 of at least half that size (a refusal or an error page is a few KB), or the run
# fails. ALONE is the time of one uncached request on the idle server, when measured.
load() {
	local size=$1 name=$2 url=$3 expect=$4 lua=${5:-$WORK/count.lua} single=${6:--} out rps p50=- p99=- errs count answers
	out=$WORK/wrk-$size-${name//[^a-z0-9]/_}.txt
	local args=(-t1 -c"$CONNS" -d"$DURATION" --latency --timeout 10s -s "$lua")
	sleep 1 # let the work of the previous run drain
	timeout 120 taskset -c "$LOAD_CPU" wrk "${args[@]}" "$url" >"$out" 2>&1 || log "wrk $name failed: $(tail -3 "$out")"
	count=$(awk '/requests in/ { print $1 }' "$out")
	rps=$(awk '/^Requests\/sec:/ { printf($2 < 10 ? "%.1f" : "%.0f", $2) }' "$out")
	if [ "${count:-0}" -gt 0 ]; then
		p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$out")")
		p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
	fi
	errs=$(awk '/Socket errors:/ { gsub(/,/, ""); s += $4 + $6 + $8 + $10 } /Non-2xx/ { s += $NF } END { print s + 0 }' "$out")
	answers=$(awk '/^answers / { sub(/^answers /, ""); print }' "$out")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$name" "${rps:-0}" "$p50" "$p99" "$errs" "$single" "$answers" >>"$RESULTS"
	log "$(printf '%-7s %-26s %8s req/s  p50 %8s ms  p99 %8s ms  errors %-5s alone %s ms  %s' "$size" "$name" "${rps:-0}" "$p50" "$p99" "$errs" "$single" "$answers")"
	# The row measured its page only if every answer was a 200 of about the page's size.
	local others min
	others=$(tr ' ' '\n' <<<"${answers% bytes*}" | grep -v '^200:' | grep -c . || true)
	min=$(sed -n 's/.* bytes \([0-9]*\)-.*/\1/p' <<<"$answers")
	if [ -z "$answers" ] || [ "$others" != 0 ] || [ "${min:-0}" -lt $((expect / 2)) ]; then
		die "row '$name' on catalog $size did not measure its page: answers ${answers:-none} (want only 200s of about $expect bytes)"
	fi
}

# miss_url URL N: the URL made new to the response cache, as missPath does in miss.lua.
miss_url() {
	local url=$1 n=$2 sep="?"
	[[ $url == *"?"* ]] && sep="&"
	case $url in
	*/cases/*) echo "$url${sep}from=q%3Dbench$n" ;;
	*q=*) echo "${url/q=/q=bench$n+}" ;;
	*) echo "$url${sep}q=bench$n+network" ;;
	esac
}

# alone URL EXPECT: the time in ms of one real render on the otherwise idle server: a URL new to
# the cache each time, its status and size checked, the median of 5 (of fewer when one takes
# over a second). An answer that is not a 200 of at least half EXPECT bytes fails the run.
alone() {
	local url=$1 expect=$2 times=() r code ms bytes
	for i in 1 2 3 4 5; do
		r=$(curl -s -o /dev/null -w '%{http_code} %{time_total} %{size_download}' --max-time 30 "$(miss_url "$url" "alone$RANDOM$i")") || r="000 30 0"
		read -r code ms bytes <<<"$r"
		ms=$(awk -v t="$ms" 'BEGIN { printf "%.1f", t * 1000 }')
		if [ "$code" != 200 ] || [ "$bytes" -lt $((expect / 2)) ]; then
			die "alone $url: answered $code with $bytes bytes (want 200 and about $expect)"
		fi
		times+=("$ms")
		if awk -v t="$ms" 'BEGIN { exit !(t > 1000) }'; then
			break
		fi
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# nginx_conf DIR PORT: an nginx configuration serving DIR/html/case.html for every path.
nginx_conf() {
	local dir=$1 port=$2
	cat <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/tmp-body;
    proxy_temp_path $dir/tmp-proxy;
    fastcgi_temp_path $dir/tmp-fastcgi;
    uwsgi_temp_path $dir/tmp-uwsgi;
    scgi_temp_path $dir/tmp-scgi;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$port;
        root $dir/html;
        location / { default_type "text/html; charset=UTF-8"; try_files /case.html =404; }
    }
}
CONF
}

# bench_size SIZE: start the server on a catalog, nginx beside it, and load both.
bench_size() {
	local size=$1 db="" port base status t0 startup ready_rss name nport ngx
	local -A single
	if [ "$size" != real ]; then
		db=$(catalog_for "$size") || die "no catalog of $size cases"
	fi
	port=$(free_port)
	base=http://127.0.0.1:$port
	# No rate limit and no render budget: every row measures rendering, not refusals.
	local args=(-addr "127.0.0.1:$port" -rate 0 -render-rate 0)
	if [ -n "$db" ]; then
		args+=(-db "$db")
	fi
	SERVER_LOG=$WORK/server-$size.log
	log "catalog $size: starting the server on $base (core $SERVER_CPU)"
	t0=$(now_ms)
	taskset -c "$SERVER_CPU" "$SERVER_BIN" "${args[@]}" 2>"$SERVER_LOG" &
	SERVER_PID=$!
	wait_ready "$base/readyz" "$SERVER_PID" 120 || die "server did not get ready: $(tail -5 "$SERVER_LOG")"
	startup=$(($(now_ms) - t0))
	ready_rss=$(kib_of "$SERVER_PID" VmHWM)

	# One request of each alone, uncached; then the plain URL, which a response cache keeps for
	# the runs. A 4xx means a wrong URL here; a 503 is the server's request timeout (10 s).
	local -A expect
	for name in $ENDPOINTS; do
		read -r status expect[$name] < <(curl -s -o /dev/null -w '%{http_code} %{size_download}\n' --max-time 30 "$base${PATHS[$name]}" || echo "000 0")
		case $status in
		200) ;;
		4*) die "GET ${PATHS[$name]} answered $status on catalog $size" ;;
		*) die "GET ${PATHS[$name]} answered $status on catalog $size: too slow for the request timeout?" ;;
		esac
		if [[ " $MISS_ENDPOINTS " == *" $name "* ]]; then
			single[$name]=$(alone "$base${PATHS[$name]}" "${expect[$name]}")
		fi
		alive
	done

	# nginx serves the exact bytes of the case page, from its own prefix, on the server's core.
	ngx=$WORK/nginx-$size
	nport=$(free_port)
	mkdir -p "$ngx/html" "$ngx/logs"
	curl -fsS --max-time 30 -o "$ngx/html/case.html" "$base$CASE_PATH" || die "cannot save the case page"
	nginx_conf "$ngx" "$nport" >"$ngx/nginx.conf"
	taskset -c "$SERVER_CPU" "$NGINX" -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/logs/error.log" 2>"$ngx/logs/stderr.log" &
	NGINX_PID=$!
	wait_ready "http://127.0.0.1:$nport/" "$NGINX_PID" 10 ||
		die "nginx did not start: $(cat "$ngx/logs/stderr.log" "$ngx/logs/error.log" 2>/dev/null | tail -5)"
	cmp -s "$ngx/html/case.html" <(curl -fsS "http://127.0.0.1:$nport$CASE_PATH") || die "nginx does not serve the saved page"
	load "$size" "nginx (same case page)" "http://127.0.0.1:$nport$CASE_PATH" "${expect[case]}"
	stop "$NGINX_PID"
	NGINX_PID=

	for name in $ENDPOINTS; do
		alive
		load "$size" "${LABELS[$name]}" "$base${PATHS[$name]}" "${expect[$name]}"
	done
	for name in $MISS_ENDPOINTS; do
		alive
		load "$size" "${LABELS[$name]}, miss" "$base${PATHS[$name]}" "${expect[$name]}" "$WORK/miss.lua" "${single[$name]}"
	done
	alive
	printf '%s\t%s\t%s\t%s\t%s\n' "$size" "$startup" "$ready_rss" "$(kib_of "$SERVER_PID" VmHWM)" \
		"$(stat -c %s "${db:-data/embedded/catalog.db}")" >>"$MEMORY"
	stop "$SERVER_PID"
	SERVER_PID=
}

# --- run ------------------------------------------------------------------------------------
START=$(now_ms)
log "server on core $SERVER_CPU (GOMAXPROCS follows the affinity: 1), wrk -t1 -c$CONNS -d$DURATION on core $LOAD_CPU"
for size in $SIZES; do
	bench_size "$size"
done

echo
echo "Load: wrk -t1 -c$CONNS -d$DURATION --latency --timeout 10s on core $LOAD_CPU; the server (-rate 0 -render-rate 0) and nginx on core $SERVER_CPU."
echo "miss: a new value of a parameter the page reads on every request, so no response cache answers."
echo "alone: one real render on the idle server (a URL new to the cache each time), median of 5."
echo "answers: by status, and the smallest and largest body; every row is checked to be 200s of its page."
echo
printf '%-7s  %-26s %9s %9s %9s %8s %7s %11s  %s\n' catalog endpoint req/s "p50 ms" "p99 ms" "/nginx" errors "alone ms" answers
awk -F'\t' '
	$2 ~ /^nginx/ { ng[$1] = $3 }
	{ row[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			split(row[i], f, "\t")
			ratio = (ng[f[1]] > 0) ? sprintf("%.4f", f[3] / ng[f[1]]) : "-"
			printf "%-7s  %-26s %9s %9s %9s %8s %7s %11s  %s\n", f[1], f[2], f[3], f[4], f[5], ratio, f[6], f[7], f[8]
		}
	}' "$RESULTS"
echo
printf '%-7s  %11s %15s %15s %13s\n' catalog "startup ms" "RSS when ready" "peak RSS" "catalog file"
while IFS=$'\t' read -r size startup ready peak bytes; do
	awk -v s="$size" -v t="$startup" -v r="$ready" -v p="$peak" -v b="$bytes" \
		'BEGIN { printf "%-7s  %11d %11.0f MiB %11.0f MiB %9.0f MiB\n", s, t, r / 1024, p / 1024, b / 1048576 }'
done <"$MEMORY"
echo "(startup: from exec until /readyz answers; RSS: VmHWM of /proc/PID/status; peak: after all runs)"

if [ "$RUN_GO" = 1 ]; then
	echo
	echo "Go benchmarks on the fixture catalog (BENCH_DB=FILE runs them on another):"
	if ! timeout 600 go test -run '^$' -bench . -benchmem ./internal/catalog/ ./web/ >"$WORK/go-bench.txt" 2>&1; then
		tail -20 "$WORK/go-bench.txt" >&2
		die "go benchmarks failed"
	fi
	grep -E '^(Benchmark|ok|pkg:)' "$WORK/go-bench.txt"
fi
if [ "${BENCH_LOAD:-1}" = 1 ]; then
	echo
	echo "Load test: 60 s at 256 connections of mixed traffic on the real catalog (bench/load.sh):"
	bash "$(dirname "$0")/load.sh" 60s 256 || die "load test failed"
fi
log "done in $((($(now_ms) - START) / 1000)) s"
