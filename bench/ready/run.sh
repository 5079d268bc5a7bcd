#!/usr/bin/env bash
# Time to ready and idle memory: starts each service alone STARTS times, one after another, on
# BENCH_PORT (throw-away keys, database exam_bench, Redis db 13) and reports per start the time from
# its process's start to /q/health/ready 200 and its RSS 5 s later, idle. Runs the JVM build, or
# whatever BENCH_COMMAND_<SERVICE> says (./exam bench --native / --compare: the native executables).
#
#   bench/ready/run.sh                                        # the four services, 3 starts each
#   STARTS=1 READY_SERVICES=session-service bench/ready/run.sh
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # pub, rsa_key_pairs, bench_start, ensure_database, bench_command, bench_ready, java_flags_for
STARTS="${STARTS:-3}"
READY_SERVICES="${READY_SERVICES:-session-service answer-service submission-service grading-saga}"
BENCH_PORT="${BENCH_PORT:-18094}"
DB_NAME="${DB_NAME:-exam_bench}"

bench_start ready-bench openssl psql
export BENCH_READY_FILE="${BENCH_READY_FILE:-$WORK/ready.txt}" # bench_ready: idle 5 s after each ready
PID=""
trap '[ -z "$PID" ] || kill "$PID"; wait; rm -rf "$WORK"' EXIT
rsa_key_pairs "$WORK" candidate operator service paper archive
ensure_database "${EXAM_DB_HOST:-127.0.0.1}" "${EXAM_DB_USER:-postgres}" "$DB_NAME"
# Everything the four services need, read before the starts (the time to ready counts from the fork).
export EXAM_HTTP_PORT="$BENCH_PORT" EXAM_DB_NAME="$DB_NAME" EXAM_REDIS_URL="redis://${REDIS_HOST:-127.0.0.1}:${REDIS_PORT:-6379}/${REDIS_DB:-13}" \
  EXAM_CANDIDATE_PUBLIC_KEY="$(pub "$WORK/candidate.pub")" EXAM_CANDIDATE_PRIVATE_KEY="$(pub "$WORK/candidate.key")" \
  EXAM_OPERATOR_PUBLIC_KEY="$(pub "$WORK/operator.pub")" EXAM_SERVICE_PUBLIC_KEY="$(pub "$WORK/service.pub")" \
  EXAM_SERVICE_PRIVATE_KEY="$(cat "$WORK/service.key")" EXAM_PAPER_PRIVATE_KEY="$(cat "$WORK/paper.key")" \
  EXAM_PAPER_PUBLIC_KEY="$(cat "$WORK/paper.pub")" EXAM_ARCHIVE_PRIVATE_KEY="$(cat "$WORK/archive.key")" \
  EXAM_ARCHIVE_PUBLIC_KEY="$(cat "$WORK/archive.pub")" EXAM_PAPERS_STREAM="stream:{papers}:ready-bench" \
  EXAM_PAPERS_REPUBLISH_AFTER=PT1H QUARKUS_OTEL_SDK_DISABLED=true QUARKUS_LOG_CONSOLE_JSON_ENABLED=false \
  MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
for url in SESSION ANSWER SUBMISSION GRADING; do export "EXAM_${url}_URL=http://127.0.0.1:$((BENCH_PORT + 1))"; done

for i in $(seq 1 "$STARTS"); do
  for svc in $READY_SERVICES; do
    opts="JAVA_OPTS_${svc%%-*}" && opts="${opts^^}"
    cmd="$(bench_command "$svc" "${!opts:-$(java_flags_for "$svc")}" "${APPS:-$ROOT}/$svc/target/quarkus-app/quarkus-run.jar")"
    $cmd >"$WORK/$svc-$i.log" 2>&1 &
    PID=$!
    bench_ready "$svc" "$PID" "$BENCH_PORT" "$WORK/$svc-$i.log"
    echo "$svc $i $READY_MS $(awk '/^VmRSS/ { print $2 }' "/proc/$PID/status") $(grep -oE 'started in [0-9.]+s' "$WORK/$svc-$i.log" | head -n 1 | cut -d' ' -f3)" >>"$WORK/starts.txt"
    kill "$PID" && wait "$PID" || true
    PID=""
  done
done
{
  echo "# Time to ready $STAMP"
  echo
  echo "Machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; each service alone, $STARTS starts; $([ "${cmd%% *}" = java ] && echo "JVM build" || echo "native executables")."
  echo
  echo "| service | start | process start → ready 200 | Quarkus: started in | RSS 5 s after ready, idle |"
  echo "|---|---|---|---|---|"
  awk '{ printf "| %s | %d | %d ms | %s | %d MiB |\n", $1, $2, $3, $5 == "" ? "—" : $5, $4 / 1024 }' "$WORK/starts.txt"
} >"$OUT"
cat "$OUT"
echo "report: $OUT"
