#!/usr/bin/env bash
# grading-saga's results read side (issue 21): what Hibernate Reactive costs in start-up time and
# memory, and how the per-exam listing, export and statistics behave on a large exam. Starts its
# own grading-saga on a bench port (database exam_bench_results, Redis db 2) against the JDK stubs
# of bench/saga, seeds PAPERS graded results of one exam straight into PostgreSQL, then reads them
# back through the API. Works with an older jar too (JAR=...): then only start-up and idle memory.
#
#   bench/exam-results/run.sh                          # 50,000 papers
#   PAPERS=5000 bench/exam-results/run.sh              # a quick look
#   READS=0 bench/exam-results/run.sh                  # start-up and idle memory only
#   JAR=/tmp/old/grading-saga/target/quarkus-app/quarkus-run.jar bench/exam-results/run.sh   # A/B
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # pub, bench_start, ensure_database, java_flags_for, bench_command, bench_ready
PAPERS="${PAPERS:-50000}"
REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
REDIS_PORT="${REDIS_PORT:-6379}"
REDIS_DB="${REDIS_DB:-2}"
DB_HOST="${EXAM_DB_HOST:-127.0.0.1}"
DB_USER="${EXAM_DB_USER:-postgres}"
DB_NAME="${DB_NAME:-exam_bench_results}"
STUB_PORT="${STUB_PORT:-18292}"
GRADING_PORT="${GRADING_PORT:-18285}"
bench_start results-bench openssl psql curl
EXAM_ID="bench-results-$STAMP"
JAR="${JAR:-$ROOT/grading-saga/target/quarkus-app/quarkus-run.jar}"
if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl grading-saga -am package -DskipTests)
fi

openssl genpkey -algorithm ED25519 -out "$WORK/paper.key" 2>/dev/null
openssl pkey -in "$WORK/paper.key" -pubout -out "$WORK/paper.pub" 2>/dev/null
rsa_key_pairs "$WORK" candidate operator service archive
ensure_database "$DB_HOST" "$DB_USER" "$DB_NAME"
sql() { psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -tAc "$1"; }

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  # the database is this benchmark's own; a DELETE of the sagas would check result's foreign key
  # row by row without an index (minutes for 50,000)
  sql "TRUNCATE exam_grading.result, exam_grading.saga_history, exam_grading.saga_step, exam_grading.saga" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

java "$ROOT/bench/saga/Bench.java" stubs "$STUB_PORT" "$WORK/paper.key" "$EXAM_ID" >"$WORK/stubs.log" 2>&1 &
PIDS+=("$!")

GS_JAVA_OPTS="${JAVA_OPTS_GRADING:-${JAVA_OPTS:-$(java_flags_for grading-saga)}}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# shellcheck disable=SC2086 # GS_JAVA_OPTS is a list of JVM flags
EXAM_HTTP_PORT="$GRADING_PORT" EXAM_DB_NAME="$DB_NAME" EXAM_REDIS_URL="redis://$REDIS_HOST:$REDIS_PORT/$REDIS_DB" \
EXAM_CANDIDATE_PUBLIC_KEY="$(pub "$WORK/candidate.pub")" EXAM_OPERATOR_PUBLIC_KEY="$(pub "$WORK/operator.pub")" \
EXAM_SERVICE_PUBLIC_KEY="$(pub "$WORK/service.pub")" EXAM_SERVICE_PRIVATE_KEY="$(cat "$WORK/service.key")" \
EXAM_PAPER_PUBLIC_KEY="$(cat "$WORK/paper.pub")" EXAM_ARCHIVE_PRIVATE_KEY="$(cat "$WORK/archive.key")" \
EXAM_ARCHIVE_PUBLIC_KEY="$(cat "$WORK/archive.pub")" EXAM_PAPERS_STREAM="stream:{papers}:results-bench-$STAMP" \
EXAM_SESSION_URL="http://127.0.0.1:$STUB_PORT" EXAM_SUBMISSION_URL="http://127.0.0.1:$STUB_PORT" \
QUARKUS_OTEL_SDK_DISABLED=true QUARKUS_LOG_CONSOLE_JSON_ENABLED=false \
  $(bench_command grading-saga "$GS_JAVA_OPTS" "$JAR") >"$WORK/grading-saga.log" 2>&1 &
GS_PID=$!
PIDS+=("$GS_PID")
bench_ready grading-saga "$GS_PID" "$GRADING_PORT" "$WORK/grading-saga.log"
ready_ms="$READY_MS"
started="$(grep -oE 'started in [0-9.]+s' "$WORK/grading-saga.log" | head -n 1 | grep -oE '[0-9.]+s')"

kib() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$GS_PID/status"; }
mib() { awk -v v="$1" 'BEGIN { printf "%d MiB", v / 1024 }'; }
heap() { jcmd "$GS_PID" GC.heap_info 2>/dev/null | awk '/Metaspace/ { printf "metaspace used %d MiB", $3 / 1024 }'; }
sleep 10
idle_rss="$(kib VmRSS)"
idle_meta="$(heap)"

{
  echo "# grading-saga results read side — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Jar: \`${JAR#"$ROOT/"}\`; JVM flags: \`$GS_JAVA_OPTS\`."
  echo
  echo "| what | figure |"
  echo "|---|---|"
  echo "| start-up: launch → /q/health/ready 200 | $ready_ms ms (Quarkus: started in $started) |"
  echo "| RSS 10 s after ready (idle) | $(mib "$idle_rss") ($idle_meta) |"
} >"$OUT"

token="$(java "$ROOT/bench/saga/Bench.java" token "$WORK/operator.key")"
auth=(-H "Authorization: Bearer $token")
base="http://127.0.0.1:$GRADING_PORT/api/v1/results/exams/$EXAM_ID"
if [ "${READS:-1}" = 0 ]; then
  : # start-up and idle memory only
elif [ "$(curl -s -o /dev/null -w '%{http_code}' "${auth[@]}" "$base")" != 200 ]; then
  echo "| per-exam results API | absent from this jar |" >>"$OUT"
else
  # PAPERS graded results of the five-question exam the stubs serve, with marks and choices as the saga writes them
  seeded_ms="$(date +%s%3N)"
  psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -q <<SQL
INSERT INTO exam_grading.saga (saga_id, definition, business_key, run, refs, status)
SELECT md5('$EXAM_ID' || i)::uuid, 'grading', '$EXAM_ID-' || lpad(i::text, 6, '0'), 1,
       jsonb_build_object('examId', '$EXAM_ID', 'sessionId', 'session-' || i), 'COMPLETED'
FROM generate_series(1, $PAPERS) i;
INSERT INTO exam_grading.result (paper_id, run, saga_id, exam_id, session_id, candidate_id, status, score, max_score,
                                 marks, choices, key_revision, archive_seq, updated_at)
SELECT '$EXAM_ID-' || lpad(i::text, 6, '0'), 1, md5('$EXAM_ID' || i)::uuid, '$EXAM_ID', 'session-' || i, 'cand-' || i,
       'GRADED', a + b + c + d + e, 8,
       jsonb_build_array(
         jsonb_build_object('questionId', 'q1', 'type', 'SINGLE', 'points', 2, 'score', a),
         jsonb_build_object('questionId', 'q2', 'type', 'MULTIPLE', 'points', 3, 'score', b),
         jsonb_build_object('questionId', 'q3', 'type', 'TRUE_FALSE', 'points', 1, 'score', c),
         jsonb_build_object('questionId', 'q4', 'type', 'FILL', 'points', 1, 'score', d),
         jsonb_build_object('questionId', 'q5', 'type', 'NUMERIC', 'points', 1, 'score', e)),
       jsonb_build_object('q1', jsonb_build_array(CASE WHEN a > 0 THEN 1 ELSE 0 END),
                          'q2', jsonb_build_array(0, 2), 'q3', jsonb_build_array(1 - c)),
       1, i, now()
FROM (SELECT i, (i % 2) * 2 AS a, (i % 4) * 0.75 AS b, (i / 3) % 2 AS c, (i / 5) % 2 AS d, (i / 7) % 2 AS e
      FROM generate_series(1, $PAPERS) i) s;
ANALYZE exam_grading.result;
SQL
  seeded_ms=$(($(date +%s%3N) - seeded_ms))
  timed() { # label curl-args...: one request, its time and size
    local label="$1"
    shift
    curl -s -o "$WORK/body" -w '%{http_code} %{time_total} %{size_download}' "${auth[@]}" "$@" >"$WORK/timing"
    read -r code seconds bytes <"$WORK/timing" || true # no line end after curl's -w
    echo "| $label | HTTP $code, $(awk -v s="$seconds" 'BEGIN { printf "%.0f ms", s * 1000 }'), $(awk -v b="$bytes" 'BEGIN { printf "%.1f MiB", b / 1048576 }') |" >>"$OUT"
  }
  hwm_before="$(kib VmHWM)"
  walk_ms="$(date +%s%3N)"
  pages=0 after=""
  while :; do
    curl -sf "${auth[@]}" "$base?limit=200${after:+&after=$after}" >"$WORK/page"
    pages=$((pages + 1))
    after="$(grep -o '"nextCursor":"[^"]*"' "$WORK/page" | cut -d'"' -f4 || true)"
    [ -n "$after" ] || break
  done
  walk_ms=$(($(date +%s%3N) - walk_ms))
  echo "| seeded $PAPERS GRADED results (SQL) | $seeded_ms ms |" >>"$OUT"
  echo "| listing: all $pages pages of 200 | $walk_ms ms ($((walk_ms / pages)) ms a page) |" >>"$OUT"
  timed "export CSV" "$base/export?format=csv"
  rows="$(($(wc -l <"$WORK/body") - 1))"
  timed "export JSON" "$base/export?format=json"
  timed "statistics (first)" "$base/statistics"
  timed "statistics (again)" "$base/statistics"
  {
    echo "| CSV rows | $rows |"
    echo "| peak RSS (VmHWM) before the reads → after | $(mib "$hwm_before") → $(mib "$(kib VmHWM)") |"
    echo "| RSS after the reads | $(mib "$(kib VmRSS)") ($(heap)) |"
  } >>"$OUT"
  grep -o '"reliability":{[^}]*}' "$WORK/body" | sed 's/^/Statistics: /' >>"$OUT" || true
fi
grep -h "ERROR" "$WORK/grading-saga.log" | head -5 >>"$OUT" || true
cat "$OUT"
echo "report: $OUT"
