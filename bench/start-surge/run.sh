#!/usr/bin/env bash
# Exam-start surge (issue 19): CANDIDATES enrolled candidates start their session at once,
# IN_FLIGHT at a time, each retrying a 429/503 after its Retry-After, against one
# session-service. Reports throughput, p50/p99 of the served starts, the 429s, 5xx (must be 0)
# and CPU per start of the service, PostgreSQL, Redis, the driver and the whole machine. Starts
# its own session-service on BENCH_PORT with throw-away keys (database exam_bench_surge, Redis
# db 12), so it never touches a running suite or the tests.
#
#   bench/start-surge/run.sh                                          # 10,000 candidates, 200 in flight
#   CANDIDATES=500 WARMUP_CANDIDATES=200 bench/start-surge/run.sh     # a smoke
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # bench_start, bench_session_defaults, bench_session_service, bench_session_cleanup
CANDIDATES="${CANDIDATES:-10000}"
IN_FLIGHT="${IN_FLIGHT:-200}"
# A first surge of other candidates of the same exam, not reported: the service has served
# enrolments and earlier exams' starts before an exam begins; a fresh JVM would be measured compiling.
WARMUP_CANDIDATES="${WARMUP_CANDIDATES:-2000}"
QUESTIONS="${QUESTIONS:-20}"
BENCH_PORT="${BENCH_PORT:-18093}"
REDIS_DB="${REDIS_DB:-12}"
DB_NAME="${DB_NAME:-exam_bench_surge}"
bench_session_defaults

bench_start start-surge-bench openssl psql curl
ulimit -n 65536 2>/dev/null || true
if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl session-service -am package -DskipTests)
fi

trap bench_session_cleanup EXIT
bench_session_service

java "$HERE/Surge.java" enroll "$URL" "$((WARMUP_CANDIDATES + CANDIDATES))" "$QUESTIONS" "$WORK/operator.key" "$WORK/candidates.txt"
cp "$WORK/candidates.txt.exam" "$WORK/sessions.txt.exam" # what bench_session_cleanup deletes

TICK="$(getconf CLK_TCK)"
cpu_ms() { awk -v t="$TICK" '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); printf "%d", (f[12] + f[13]) * 1000 / t }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# Every postgres process plus what the postmaster reaped from ended backends (shared with the machine's other load).
pg_cpu_ms() {
  local total=0 pid master
  master="$(pgrep -o -x postgres || true)"
  for pid in $(pgrep -x postgres); do total=$((total + $(cpu_ms "$pid"))); done
  if [ -n "$master" ]; then
    total=$((total + $(awk -v t="$TICK" '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); printf "%d", (f[14] + f[15]) * 1000 / t }' "/proc/$master/stat")))
  fi
  echo "$total"
}
redis_cpu_ms() { local pid; pid="$(pgrep -o -x redis-server || true)"; [ -n "$pid" ] && cpu_ms "$pid" || echo 0; }
surge_cpu_snapshot() { echo "$(cpu_ms "$SERVICE_PID") $(pg_cpu_ms) $(redis_cpu_ms) $(awk '{print $1 + $2 + $3 + $6 + $7 + $8}' <(head -1 /proc/stat | cut -d' ' -f2-))"; }

if [ "$WARMUP_CANDIDATES" -gt 0 ]; then
  java "$HERE/Surge.java" surge "$URL" "$WORK/candidates.txt" 0 "$WARMUP_CANDIDATES" "$IN_FLIGHT" "$WORK/warmup.md" "$WORK/warmup-ids.txt" >/dev/null
  cat "$WORK/warmup-ids.txt" >>"$WORK/sessions.txt"
fi
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
read -r svc0 pg0 redis0 all0 <<<"$(surge_cpu_snapshot)"
java "$HERE/Surge.java" surge "$URL" "$WORK/candidates.txt" "$WARMUP_CANDIDATES" "$CANDIDATES" "$IN_FLIGHT" "$WORK/surge.md" "$WORK/surge-ids.txt" \
  | tee "$WORK/surge.out"
read -r svc1 pg1 redis1 all1 <<<"$(surge_cpu_snapshot)"
cat "$WORK/surge-ids.txt" >>"$WORK/sessions.txt"
driver_ms="$(awk '/^driver-cpu-ms/ {print $2}' "$WORK/surge.out")"
seconds="$(awk '/^seconds/ {print $2}' "$WORK/surge.out")"
in_db="$(psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -tAc \
  "SELECT count(*) FROM exam_session.session WHERE exam_id = '$(cat "$WORK/candidates.txt.exam")'")"
{
  echo "# Exam-start surge — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load average before the surge: $load_before; driver on the same machine."
  echo "$CANDIDATES candidates (after a warm-up surge of $WARMUP_CANDIDATES others of the same exam), $IN_FLIGHT in flight, $QUESTIONS questions; clients honour Retry-After."
  echo
  cat "$WORK/surge.md"
  echo "| sessions of the exam in PostgreSQL (warm-up + surge) | $in_db |"
  awk -v n="$CANDIDATES" -v s="$((svc1 - svc0))" -v p="$((pg1 - pg0))" -v r="$((redis1 - redis0))" -v d="${driver_ms:-0}" \
      -v m="$(( (all1 - all0) * 1000 / TICK ))" -v t="${seconds:-0}" 'BEGIN {
    printf "| CPU ms per start: session-service / PostgreSQL (all) / Redis (shared) / driver / whole machine | %.2f / %.2f / %.2f / %.2f / %.2f |\n", s / n, p / n, r / n, d / n, m / n
    printf "| CPU s during the surge (%.1f s): session-service / PostgreSQL / Redis / driver / whole machine | %.1f / %.1f / %.1f / %.1f / %.1f |\n", t, s / 1000, p / 1000, r / 1000, d / 1000, m / 1000 }'
  echo
  echo "session-service: $JAVA_OPTS, MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX; peak RSS (VmHWM) $(awk '/VmHWM/ {printf "%d MiB", $2/1024}' "/proc/$SERVICE_PID/status")."
} >"$OUT"
grep -h "ERROR" "$WORK/service.log" | head -5 >>"$OUT" || true
cat "$OUT"
echo "report: $OUT"
