#!/usr/bin/env bash
# Heartbeat benchmark (session-service's hot path: every candidate's device calls it every few
# seconds through the whole exam — docs/api.md §3.2): POST /api/v1/sessions/{id}/heartbeat with
# the session's candidate token over thousands of started sessions, at several connection
# counts. Each heartbeat reads the session, marks it online, reads pending proctor commands and
# mints a renewed RS256 candidate token. Starts its own session-service on BENCH_PORT with
# throw-away keys, database exam_bench and Redis db 4, so it never touches a running suite or
# the tests; the sessions are created through the service's own API (Seed.java).
#
#   bench/heartbeat/run.sh                                            # 50 and 200 connections, 30 s each
#   DURATION=3 WARMUP=2 CONNECTIONS=50 SESSIONS=100 bench/heartbeat/run.sh   # a smoke
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # field, cpu_snapshot, bench_start, bench_session_defaults, bench_session_service, bench_session_cleanup
SESSIONS="${SESSIONS:-2000}"
CONNECTIONS="${CONNECTIONS:-50 200}"
DURATION="${DURATION:-30}"
WARMUP="${WARMUP:-30}"
THREADS="${THREADS:-2}"
BENCH_PORT="${BENCH_PORT:-18091}"
REDIS_DB="${REDIS_DB:-4}" # the autosave benchmark uses 2, the deadline storm 3, the live one 5
bench_session_defaults
# wrk sends each session far more than the 120 heartbeats a minute a candidate may: keep the
# limit's Redis call on the measured path, but high enough that it refuses nothing.
export EXAM_LIMITS_HEARTBEATS_PER_MINUTE="${EXAM_LIMITS_HEARTBEATS_PER_MINUTE:-1000000000}"

bench_start heartbeat-bench wrk openssl psql
ulimit -n 65536 2>/dev/null || true
if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl session-service -am package -DskipTests)
fi

trap bench_session_cleanup EXIT
bench_session_service

java "$HERE/Seed.java" "$URL" "$SESSIONS" "$WORK/operator.key" "$WORK/sessions.txt"
export BENCH_SESSIONS="$WORK/sessions.txt"

run_wrk() { # connections duration out
  wrk -t"$THREADS" -c"$1" -d"${2}s" --timeout 10s --latency -s "$HERE/wrk.lua" "$URL" >"$3" 2>&1 || true
}

echo "warm-up: ${WARMUP}s at 200 connections (discarded)"
run_wrk 200 "$WARMUP" "$WORK/warm.txt"
{
  echo "# Heartbeat benchmark $STAMP"
  echo
  echo "Host: $(nproc) cores, $(uname -sr); sessions: $SESSIONS; wrk -t$THREADS, ${DURATION}s per cell (warm-up ${WARMUP}s); load generator on the same host; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
  echo
  echo "| connections | req/s | p50 | p99 | non-2xx | socket errors | CPU µs/req service / Redis / PostgreSQL |"
  echo "|---|---|---|---|---|---|---|"
} >"$OUT"
hz="$(getconf CLK_TCK)"
for c in $CONNECTIONS; do
  read -r s0 r0 p0 <<<"$(cpu_snapshot "$SERVICE_PID")"
  run_wrk "$c" "$DURATION" "$WORK/h-$c.txt"
  read -r s1 r1 p1 <<<"$(cpu_snapshot "$SERVICE_PID")"
  n="$(field "$WORK/h-$c.txt" requests)"
  cpu="$(awk -v n="${n:-0}" -v hz="$hz" -v s="$((s1 - s0))" -v r="$((r1 - r0))" -v p="$((p1 - p0))" \
    'BEGIN { if (n > 0) printf "%d / %d / %d", s * 1e6 / hz / n, r * 1e6 / hz / n, p * 1e6 / hz / n; else print "—" }')"
  echo "| $c | $(field "$WORK/h-$c.txt" rps) | $(field "$WORK/h-$c.txt" p50) | $(field "$WORK/h-$c.txt" p99) | $(field "$WORK/h-$c.txt" non2xx) | $(field "$WORK/h-$c.txt" errors) | $cpu |" >>"$OUT"
  cp "$WORK/h-$c.txt" "$RESULTS/$STAMP-$c.wrk.txt"
done
{
  echo
  echo "Service JVM: $JAVA_OPTS, MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX; peak RSS (VmHWM) $(awk '/VmHWM/ {printf "%d MiB", $2/1024}' "/proc/$SERVICE_PID/status"). CPU per request: each process's utime+stime over the run ÷ wrk's requests; PostgreSQL = all postgres processes (shared: other load counts too)."
} >>"$OUT"
cat "$OUT"
echo
echo "results: $OUT (raw wrk output beside it)"
