#!/usr/bin/env bash
# grading-saga throughput (issue 5): papers graded and archived per second, end to end from
# the stream to the archived GRADED result, with PAPERS queued papers. Starts its own
# grading-saga on a bench port with throw-away keys (database exam_bench_saga, Redis db 2, its own
# stream) against JDK stubs of session-service and submission-service, so it never touches a
# running suite or the tests.
#
#   bench/saga/run.sh                                # 500 papers warm-up (discarded), then 3,000
#   PAPERS=100 WARMUP=50 bench/saga/run.sh           # a seconds-long smoke
#   WORKERS=8 BATCH=200 bench/saga/run.sh            # other engine settings
#   JFR_FILE=/tmp/saga.jfr bench/saga/run.sh         # a JFR recording (profile settings) of the measured round
#   JAR=/tmp/old/grading-saga/target/quarkus-app/quarkus-run.jar bench/saga/run.sh   # another build (A/B)
#
# Measured: from the first stream entry's id (Redis server time, ms) to the last result made
# GRADED (PostgreSQL time) — one clock, the same machine. Checked: every paper has exactly one
# saga and one RESULT archive record, and the archive verifies.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # pub, bench_start, ensure_database, bench_command, bench_ready
PAPERS="${PAPERS:-3000}"
WARMUP="${WARMUP:-500}"
WORKERS="${WORKERS:-16}"
BATCH="${BATCH:-100}"
REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
REDIS_PORT="${REDIS_PORT:-6379}"
REDIS_DB="${REDIS_DB:-2}"
DB_HOST="${EXAM_DB_HOST:-127.0.0.1}"
DB_USER="${EXAM_DB_USER:-postgres}"
DB_NAME="${DB_NAME:-exam_bench_saga}" # its own: the other benchmarks' load in exam_bench would count as this one's
STUB_PORT="${STUB_PORT:-18291}"
GRADING_PORT="${GRADING_PORT:-18284}"
bench_start saga-bench openssl psql
STREAM="stream:{papers}:saga-bench-$STAMP"
EXAM_ID="bench-exam-$STAMP"
TIMEOUT_S="${TIMEOUT_S:-600}"

JAR="${JAR:-$ROOT/grading-saga/target/quarkus-app/quarkus-run.jar}"
if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl grading-saga -am package -DskipTests)
fi

# The paper key has the type new installs get from ./exam (Ed25519; PAPER_KEY_ALG=RSA measures
# an RSA-2048 paper key: cheaper to verify, dearer to sign). The token and archive keys are RSA.
PAPER_KEY_ALG="${PAPER_KEY_ALG:-ED25519}"
for kind in candidate operator service paper archive; do
  if [ "$kind" = paper ] && [ "$PAPER_KEY_ALG" != RSA ]; then
    openssl genpkey -algorithm ED25519 -out "$WORK/$kind.key" 2>/dev/null
  else
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/$kind.key" 2>/dev/null
  fi
  openssl pkey -in "$WORK/$kind.key" -pubout -out "$WORK/$kind.pub" 2>/dev/null
done

ensure_database "$DB_HOST" "$DB_USER" "$DB_NAME"
sql() { psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -tAc "$1"; }

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" -n "$REDIS_DB" DEL "$STREAM" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

java "$HERE/Bench.java" stubs "$STUB_PORT" "$WORK/paper.key" "$EXAM_ID" >"$WORK/stubs.log" 2>&1 &
STUB_PID=$!
PIDS+=("$STUB_PID")

GS_JAVA_OPTS="${JAVA_OPTS_GRADING:-${JAVA_OPTS:-$(java_flags_for grading-saga)}}"
# shellcheck disable=SC2086 # GS_JAVA_OPTS is a list of JVM flags
EXAM_HTTP_PORT="$GRADING_PORT" EXAM_DB_NAME="$DB_NAME" EXAM_REDIS_URL="redis://$REDIS_HOST:$REDIS_PORT/$REDIS_DB" \
EXAM_CANDIDATE_PUBLIC_KEY="$(pub "$WORK/candidate.pub")" EXAM_OPERATOR_PUBLIC_KEY="$(pub "$WORK/operator.pub")" \
EXAM_SERVICE_PUBLIC_KEY="$(pub "$WORK/service.pub")" EXAM_SERVICE_PRIVATE_KEY="$(cat "$WORK/service.key")" \
EXAM_PAPER_PUBLIC_KEY="$(cat "$WORK/paper.pub")" EXAM_ARCHIVE_PRIVATE_KEY="$(cat "$WORK/archive.key")" \
EXAM_ARCHIVE_PUBLIC_KEY="$(cat "$WORK/archive.pub")" EXAM_PAPERS_STREAM="$STREAM" \
EXAM_SESSION_URL="http://127.0.0.1:$STUB_PORT" EXAM_SUBMISSION_URL="http://127.0.0.1:$STUB_PORT" \
EXAM_SAGA_WORKERS="$WORKERS" EXAM_GRADING_CONSUMER_BATCH="$BATCH" \
QUARKUS_OTEL_SDK_DISABLED="${QUARKUS_OTEL_SDK_DISABLED:-true}" QUARKUS_LOG_CONSOLE_JSON_ENABLED=false \
  $(bench_command grading-saga "$GS_JAVA_OPTS" "$JAR" -Dquarkus.datasource.jdbc.additional-jdbc-properties.ApplicationName=saga-bench) \
  >"$WORK/grading-saga.log" 2>&1 &
GS_PID=$!
PIDS+=("$GS_PID")
bench_ready grading-saga "$GS_PID" "$GRADING_PORT" "$WORK/grading-saga.log"
for _ in $(seq 1 120); do
  curl -sf -X POST "http://127.0.0.1:$STUB_PORT/bench/prepare?prefix=probe&count=1" >/dev/null 2>&1 \
    && curl -sf "http://127.0.0.1:$GRADING_PORT/q/health/ready" >/dev/null 2>&1 && break
  sleep 1
done
curl -sf "http://127.0.0.1:$GRADING_PORT/q/health/ready" >/dev/null || { echo "grading-saga not ready"; tail -n 40 "$WORK/grading-saga.log"; exit 1; }
# our stub, not something else on its port (papers signed with another key would all fail validation)
kill -0 "$STUB_PID" 2>/dev/null || { echo "the stub did not start"; cat "$WORK/stubs.log"; exit 1; }

# CPU (utime + stime, clock ticks) of grading-saga and of the PostgreSQL backends serving it
# (application_name saga-bench; PostgreSQL's shared background processes are not counted).
TICK="$(getconf CLK_TCK)"
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg_ticks() { # "pid ticks" per backend of $DB_NAME
  for pid in $(sql "SELECT pid FROM pg_stat_activity WHERE datname = '$DB_NAME' AND application_name = 'saga-bench'"); do
    echo "$pid $(ticks "$pid")"
  done
}
pg_delta() { # $1 = file of "pid ticks" before: ticks spent since by those backends and by new ones
  pg_ticks | awk -v before="$1" 'BEGIN { while ((getline l < before) > 0) { split(l, f, " "); b[f[1]] = f[2] } }
    { d += $2 - (($1 in b) ? b[$1] : 0) } END { print d + 0 }'
}

# round NAME COUNT: publish COUNT papers at once, wait until all are GRADED, print one table row.
round() {
  local name="$1" count="$2" prefix="bench-$STAMP-$1"
  local first_id graded=0 waited=0
  curl -sf -X POST "http://127.0.0.1:$STUB_PORT/bench/prepare?prefix=$prefix&count=$count" >/dev/null
  local gs_before stub_before
  gs_before="$(ticks "$GS_PID")"
  stub_before="$(ticks "$STUB_PID")"
  pg_ticks >"$WORK/pg-$name"
  local xact_before
  xact_before="$(sql "SELECT xact_commit + xact_rollback, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = '$DB_NAME'")"
  if [ "$name" = measured ] && [ -n "${JFR_FILE:-}" ]; then
    jcmd "$GS_PID" JFR.start name=bench settings=profile filename="$JFR_FILE" >/dev/null
  fi
  first_id="$(java "$HERE/Bench.java" publish "$REDIS_HOST" "$REDIS_PORT" "$REDIS_DB" "$STREAM" "$EXAM_ID" "$prefix" "$count")"
  while [ "$graded" -lt "$count" ] && [ "$waited" -lt "$((TIMEOUT_S * 5))" ]; do
    sleep 0.2
    waited=$((waited + 1))
    graded="$(sql "SELECT count(*) FROM exam_grading.result WHERE status = 'GRADED' AND paper_id LIKE '$prefix-%'")"
  done
  if [ "$graded" -lt "$count" ]; then
    echo "round $name: only $graded of $count graded after ${TIMEOUT_S}s" >&2
    for log in "$WORK/grading-saga.log" "$WORK/stubs.log"; do tail -n 20 "$log" >&2; done
  fi
  if [ "$name" = measured ] && [ -n "${JFR_FILE:-}" ]; then
    jcmd "$GS_PID" JFR.stop name=bench >/dev/null
  fi
  sleep 1 # PostgreSQL publishes its counters when a backend is idle (at most ~1 s late)
  local xacts
  xacts="$(sql "SELECT xact_commit + xact_rollback, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = '$DB_NAME'" \
    | awk -F'|' -v before="$xact_before" -v n="$count" '{ split(before, b, "|"); printf "%.1f / %.1f / %.1f", ($1 - b[1]) / n, ($2 - b[2]) / n, ($3 - b[3]) / n }')"
  local gs_cpu pg_cpu stub_cpu
  gs_cpu="$(awk -v a="$gs_before" -v b="$(ticks "$GS_PID")" -v t="$TICK" -v n="$count" 'BEGIN { printf "%.2f", (b - a) * 1000 / t / n }')"
  stub_cpu="$(awk -v a="$stub_before" -v b="$(ticks "$STUB_PID")" -v t="$TICK" -v n="$count" 'BEGIN { printf "%.2f", (b - a) * 1000 / t / n }')"
  pg_cpu="$(awk -v d="$(pg_delta "$WORK/pg-$name")" -v t="$TICK" -v n="$count" 'BEGIN { printf "%.2f", d * 1000 / t / n }')"
  local start_ms="${first_id%%-*}"
  local end_ms sagas records seconds rate
  end_ms="$(sql "SELECT (extract(epoch FROM max(updated_at)) * 1000)::bigint FROM exam_grading.result WHERE paper_id LIKE '$prefix-%' AND status = 'GRADED'")"
  sagas="$(sql "SELECT count(*) FROM exam_grading.saga WHERE business_key LIKE '$prefix-%'")"
  records="$(sql "SELECT count(*) FROM exam_grading.archive_record WHERE kind = 'RESULT' AND paper_id LIKE '$prefix-%'")"
  seconds="$(awk -v a="$start_ms" -v b="$end_ms" 'BEGIN { printf "%.2f", (b - a) / 1000 }')"
  rate="$(awk -v n="$graded" -v s="$seconds" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "n/a" }')"
  echo "| $name | $count | $graded | $sagas | $records | $seconds | **$rate** | $gs_cpu | $pg_cpu | $stub_cpu | $xacts |"
}

{
  echo "# grading-saga throughput — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "grading-saga: $WORKERS saga workers, stream batch $BATCH; stubs and PostgreSQL/Redis on the same machine."
  echo
  echo "| round | queued | graded | sagas | RESULT records | seconds (first XADD → last GRADED) | papers/s | CPU ms/paper grading-saga | CPU ms/paper PostgreSQL (its backends) | CPU ms/paper stubs | per paper: transactions / rows inserted / rows updated (its database, incl. the script's polling) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$OUT"
if [ "$WARMUP" -gt 0 ]; then round warmup "$WARMUP" >>"$OUT"; fi
round measured "$PAPERS" >>"$OUT"

token="$(java "$HERE/Bench.java" token "$WORK/operator.key")"
verify="$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$GRADING_PORT/api/v1/archive/verify")"
{
  echo
  echo "Archive verify after the run: \`$verify\`"
  echo
  echo "Sagas by status in $DB_NAME (all runs so far): $(sql "SELECT string_agg(status || ' ' || n, ', ') FROM (SELECT status, count(*) n FROM exam_grading.saga GROUP BY status) s")"
} >>"$OUT"
{
  echo
  echo "Mean time per step in grading-saga (its own metrics, all rounds):"
  echo
  curl -s "http://127.0.0.1:$GRADING_PORT/q/metrics" | awk '
    /^exam_saga_step_duration_seconds_count/ { match($0, /step="[^"]*"/); c[substr($0, RSTART + 6, RLENGTH - 7)] = $2 }
    /^exam_saga_step_duration_seconds_sum/ { match($0, /step="[^"]*"/); s[substr($0, RSTART + 6, RLENGTH - 7)] = $2 }
    END { for (k in c) if (c[k] > 0) printf "- %s: %.1f ms over %d runs\n", k, 1000 * s[k] / c[k], c[k] }'
} >>"$OUT"
{
  echo
  echo "Peak RSS (VmHWM) of grading-saga: $(awk '/VmHWM/ { printf "%d MiB", $2 / 1024 }' "/proc/$GS_PID/status") (JAVA_OPTS: ${JAVA_OPTS_GRADING:-${JAVA_OPTS:-none}})."
} >>"$OUT"
grep -h "ERROR" "$WORK/grading-saga.log" | head -5 >>"$OUT" || true
cat "$OUT"
echo "report: $OUT"
