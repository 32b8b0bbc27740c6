#!/usr/bin/env bash
# Runs deploy/nginx.conf for real on loopback: two replicas of bin/incidentlib behind nginx, and
# checks that the second request for a page is a cache HIT, that both replicas give the same
# ETag, and that nginx keeps serving while one replica is down. CI runs it after the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/incidentlib}
[ -x "$BIN" ] || { echo "deploy/check: $BIN is missing: run make build" >&2; exit 1; }
if ! command -v curl >/dev/null || { ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; }; then
  echo "deploy/check: installing nginx"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light curl >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/logs/nginx.pid" ] && kill "$(cat "$work/logs/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "deploy/check: FAIL: $*" >&2; exit 1; }

# Ports of our own so the check can run beside a development server.
base=18080 r1=18081 r2=18082
mkdir -p "$work/logs" "$work/cache"
chmod 755 "$work"; chmod 777 "$work/cache" # nginx workers run as an unprivileged user
sed -e "s/listen 8080;/listen 127.0.0.1:$base;/" -e "s/127.0.0.1:8081/127.0.0.1:$r1/" -e "s/127.0.0.1:8082/127.0.0.1:$r2/" \
  deploy/nginx.conf >"$work/nginx.conf"
for port in $r1 $r2; do
  "$BIN" -addr 127.0.0.1:$port -base-url http://localhost:$base -trusted-proxy 127.0.0.1 -drain 0s 2>"$work/logs/replica-$port.log" &
  pids+=($!)
done
for port in $r1 $r2; do
  for i in $(seq 1 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/readyz)" = 200 ] && break
    sleep 0.1
  done
  [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/readyz)" = 200 ] || fail "replica $port not ready"
done
"$NGINX" -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log"
for i in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$base/healthz" && break; sleep 0.1; done

status() { curl -s -o /dev/null -D - "$@" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache-status"{print $2}'; }
etag() { curl -s -o /dev/null -D - "$@" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}'; }
passed=0
for path in /en/cases/IL-0016 /ko/ "/en/?cause=config-change" /api/v1/cases/IL-0003; do
  first=$(status "http://127.0.0.1:$base$path")
  second=$(status "http://127.0.0.1:$base$path")
  [ "$second" = HIT ] || fail "$path: second request X-Cache-Status $second (first $first), want HIT"
  a=$(etag "http://127.0.0.1:$r1$path"); b=$(etag "http://127.0.0.1:$r2$path")
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "$path: replicas give ETags '$a' and '$b'"
  echo "deploy/check: $path: $first then $second; both replicas ETag $a"
  passed=$((passed + 1))
done
# Revalidation through the cache keeps working: a client's ETag gets 304.
e=$(etag "http://127.0.0.1:$base/en/cases/IL-0016")
code=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $e" "http://127.0.0.1:$base/en/cases/IL-0016")
[ "$code" = 304 ] || fail "If-None-Match through nginx: $code, want 304"
passed=$((passed + 1))
# One replica down: an uncached page is still served by the other.
kill "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true
for i in 1 2 3 4; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$base/en/cases/IL-000$i?down=$i")
  [ "$code" = 200 ] || [ "$code" = 404 ] || fail "with one replica down, a fresh page answered $code"
done
passed=$((passed + 1))
echo "deploy/check: $passed passed, 0 failed"
