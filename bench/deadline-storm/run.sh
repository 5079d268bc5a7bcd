#!/usr/bin/env bash
# The deadline storm (issue 4): N sessions with autosaved drafts submit within WINDOW seconds,
# with client retries, double clicks and second devices; reports throughput, p50/p99,
# duplicates (must be 0) and missing papers (must be 0). Starts its own answer-service and
# submission-service on bench ports with throw-away keys (database exam_bench, Redis db 3) and a
# session-service stub, so it never touches a running suite or the tests.
#
#   bench/deadline-storm/run.sh                                   # 3,000 and 10,000 sessions in 10 s
#   SESSIONS="200" WINDOW=2 WARMUP_SESSIONS=50 bench/deadline-storm/run.sh   # a seconds-long smoke
#   SESSIONS="10000" WINDOW=0 bench/deadline-storm/run.sh         # as hard as it goes: all at once
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # pub, bench_start, ensure_database, bench_command, bench_ready
SESSIONS="${SESSIONS:-3000 10000}"
WINDOW="${WINDOW:-10}"
# Requests the clients keep outstanding at most (issue 19 measures with 200); 0: every client at once.
IN_FLIGHT="${IN_FLIGHT:-200}"
# A first, smaller storm on other sessions, not reported: both JVMs compile their submission and
# seal paths in it (answer-service has served autosaves all exam long when the deadline comes;
# a fresh JVM would be measured compiling). 0 measures the cold start.
WARMUP_SESSIONS="${WARMUP_SESSIONS:-1000}"
REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
REDIS_PORT="${REDIS_PORT:-6379}"
# Db 3, not the autosave benchmark's db 2: both seed sessions with bench/autosave/Seed.java
# (ids autosave-bench-*), and that benchmark's cleanup deletes *{autosave-bench-* in its db —
# mid-storm it wiped this run's published session state once (200 workers then waited on the
# session-service stub's publish).
REDIS_DB="${REDIS_DB:-3}"
DB_HOST="${EXAM_DB_HOST:-127.0.0.1}"
DB_USER="${EXAM_DB_USER:-postgres}"
DB_NAME="${DB_NAME:-exam_bench}"
SESSION_PORT="${SESSION_PORT:-18181}"
ANSWER_PORT="${ANSWER_PORT:-18182}"
SUBMISSION_PORT="${SUBMISSION_PORT:-18183}"
STREAM="stream:{papers}:bench"

bench_start deadline-storm openssl psql
ulimit -n 65536 2>/dev/null || true

# APPS: a directory holding copies of <module>/target/quarkus-app, so that a rebuild in the
# working tree during a run does not swap classes under the running services.
for module in answer-service submission-service; do
  if [ -z "${APPS:-}" ] && [ ! -f "$ROOT/$module/target/quarkus-app/quarkus-run.jar" ]; then
    (cd "$ROOT" && ./mvnw -B -q -pl "$module" -am package -DskipTests)
  fi
done

# Token keys are RSA (RS256); the paper key is Ed25519 as ./exam generates it
# (PAPER_KEY_TYPE=rsa for an RSA-2048 paper key, which the service still takes).
for kind in candidate operator service paper; do
  if [ "$kind" = paper ] && [ "${PAPER_KEY_TYPE:-ed25519}" = ed25519 ]; then
    openssl genpkey -algorithm ED25519 -out "$WORK/$kind.key" 2>/dev/null
  else
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/$kind.key" 2>/dev/null
  fi
  openssl pkey -in "$WORK/$kind.key" -pubout -out "$WORK/$kind.pub" 2>/dev/null
done

ensure_database "$DB_HOST" "$DB_USER" "$DB_NAME"

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" -n "$REDIS_DB" DEL "$STREAM" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# No grading-saga confirms the bench's papers, so the relay would publish every earlier run's
# papers again (every exam.outbox.republish-after) in the middle of this run's storms: 126,000
# of them after one session's runs, costing the relay, PostgreSQL and Redis CPU counted against
# this run's papers. Those rows are closed before the services start (this database is the
# bench's own), and this run's papers are not republished within the run.
psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -qtAc "DO \$\$ BEGIN IF to_regclass('exam_submission.outbox') IS NOT NULL THEN
  UPDATE exam_submission.outbox SET done_at = now() WHERE done_at IS NULL; END IF; END \$\$" >/dev/null

java "$HERE/Storm.java" session-stub "$SESSION_PORT" >"$WORK/session-stub.log" 2>&1 &
PIDS+=($!)

start_service() { # module port jvm-flags
  EXAM_HTTP_PORT="$2" EXAM_DB_NAME="$DB_NAME" EXAM_REDIS_URL="redis://$REDIS_HOST:$REDIS_PORT/$REDIS_DB" \
  EXAM_CANDIDATE_PUBLIC_KEY="$(pub "$WORK/candidate.pub")" EXAM_OPERATOR_PUBLIC_KEY="$(pub "$WORK/operator.pub")" \
  EXAM_SERVICE_PUBLIC_KEY="$(pub "$WORK/service.pub")" EXAM_SERVICE_PRIVATE_KEY="$(cat "$WORK/service.key")" \
  EXAM_PAPER_PRIVATE_KEY="$(cat "$WORK/paper.key")" EXAM_PAPERS_STREAM="$STREAM" EXAM_PAPERS_REPUBLISH_AFTER=PT1H \
  EXAM_SESSION_URL="http://127.0.0.1:$SESSION_PORT" EXAM_ANSWER_URL="http://127.0.0.1:$ANSWER_PORT" \
  QUARKUS_OTEL_SDK_DISABLED="${QUARKUS_OTEL_SDK_DISABLED:-true}" QUARKUS_LOG_CONSOLE_JSON_ENABLED=false \
    $(bench_command "$1" "$3" "${APPS:-$ROOT}/$1/target/quarkus-app/quarkus-run.jar") >"$WORK/$1.log" 2>&1 &
  PIDS+=($!)
}
# JVM flags per service: JAVA_OPTS_ANSWER / JAVA_OPTS_SUBMISSION, else JAVA_OPTS (./exam bench
# passes the per-service flags ./exam up uses).
start_service answer-service "$ANSWER_PORT" "${JAVA_OPTS_ANSWER:-${JAVA_OPTS:-$(java_flags_for answer-service)}}"
ANSWER_PID=$!
start_service submission-service "$SUBMISSION_PORT" "${JAVA_OPTS_SUBMISSION:-${JAVA_OPTS:-$(java_flags_for submission-service)}}"
SUBMISSION_PID=$!

# CPU time (user + system, ms) of a process; for PostgreSQL every postgres process plus what the
# postmaster reaped from ended backends (cutime/cstime). PostgreSQL and Redis are shared with
# whatever else runs on the machine: their figures are upper bounds on a busy machine.
TICK="$(getconf CLK_TCK)"
cpu_ms() { awk -v t="$TICK" '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); printf "%d", (f[12] + f[13]) * 1000 / t }' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg_cpu_ms() {
  local total=0 pid master
  master="$(pgrep -o -u postgres -x postgres || true)"
  for pid in $(pgrep -u postgres -x postgres); do total=$((total + $(cpu_ms "$pid"))); done
  if [ -n "$master" ]; then
    total=$((total + $(awk -v t="$TICK" '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); printf "%d", (f[14] + f[15]) * 1000 / t }' "/proc/$master/stat")))
  fi
  echo "$total"
}
redis_cpu_ms() { local pid; pid="$(pgrep -o -x redis-server || true)"; [ -n "$pid" ] && cpu_ms "$pid" || echo 0; }
# Groups of papers built and stored together so far, and the papers in them (submission-service's metrics).
group_stats() {
  curl -s "http://127.0.0.1:$SUBMISSION_PORT/q/metrics" 2>/dev/null | awk '
    /^exam_submission_paper_group_size_count/ { c = $NF } /^exam_submission_paper_group_size_sum/ { s = $NF }
    END { printf "%d %d\n", c, s }'
}
# Of the service's CPU, how much went to the JIT compilers and to the garbage collector (threads
# named C1/C2 CompilerThread and G1/GC ...): on a freshly started JVM a short storm pays for its warm-up.
jvm_threads_ms() { # pid -> "jit_ms gc_ms"
  local jit=0 gc=0 task comm ms
  for task in /proc/"$1"/task/*; do
    comm="$(cat "$task/comm" 2>/dev/null)" || continue
    case "$comm" in
      C1\ Compiler*|C2\ Compiler*) ms="$(cpu_ms "${task#/proc/}")"; jit=$((jit + ms)) ;;
      G1\ *|GC\ Thread*|VM\ Thread) ms="$(cpu_ms "${task#/proc/}")"; gc=$((gc + ms)) ;;
    esac
  done
  echo "$jit $gc"
}
# (not lib.sh's cpu_snapshot: this one is in ms, per service, with the whole machine's busy time)
storm_cpu_snapshot() { echo "$(cpu_ms "$SUBMISSION_PID") $(cpu_ms "$ANSWER_PID") $(pg_cpu_ms) $(redis_cpu_ms) $(awk '{print $1 + $2 + $3 + $6 + $7 + $8}' <(head -1 /proc/stat | cut -d' ' -f2-))"; }
bench_ready answer-service "$ANSWER_PID" "$ANSWER_PORT" "$WORK/answer-service.log" \
  submission-service "$SUBMISSION_PID" "$SUBMISSION_PORT" "$WORK/submission-service.log"

{
  echo "# Deadline storm — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Window ${WINDOW} s; clients keep at most ${IN_FLIGHT} requests in flight (0: no limit); double clicks ${DOUBLE_CLICK:-0.10}, second devices ${SECOND_DEVICE:-0.05}; driver on the same machine; paper key ${PAPER_KEY_TYPE:-ed25519}."
} >"$OUT"

if [ "$WARMUP_SESSIONS" -gt 0 ]; then
  java "$ROOT/bench/autosave/Seed.java" "$WARMUP_SESSIONS" "$REDIS_HOST" "$REDIS_PORT" "$REDIS_DB" "$WORK/candidate.key" "$WORK/warmup.txt"
  java "$HERE/Storm.java" drafts "$WORK/warmup.txt" "http://127.0.0.1:$ANSWER_PORT"
  java -DdoubleClick="${DOUBLE_CLICK:-0.10}" -DsecondDevice="${SECOND_DEVICE:-0.05}" -DinFlight="$IN_FLIGHT" \
    "$HERE/Storm.java" storm "$WORK/warmup.txt" "http://127.0.0.1:$SUBMISSION_PORT" "$WINDOW" "$WORK/warmup.md" >/dev/null
  # Its outbox drained before the measured storm, so that the relay's work is not counted there.
  for _ in $(seq 1 60); do
    [ "$(psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -tAc "SELECT count(*) FROM exam_submission.outbox WHERE last_sent_at IS NULL")" = "0" ] && break
    sleep 1
  done
  echo "Warm-up (not measured): a storm of $WARMUP_SESSIONS other sessions, $(awk -F'|' '/papers\/s/ {gsub(/ /, "", $3); print $3}' "$WORK/warmup.md") papers/s, duplicates $(awk -F'|' '/duplicates/ {gsub(/[ *]/, "", $3); print $3}' "$WORK/warmup.md"), missing $(awk -F'|' '/missing/ {gsub(/[ *]/, "", $3); print $3}' "$WORK/warmup.md")." >>"$OUT"
fi

for n in $SESSIONS; do
  # Seeds published session state + tokens the way session-service would (shared with bench/autosave).
  java "$ROOT/bench/autosave/Seed.java" "$n" "$REDIS_HOST" "$REDIS_PORT" "$REDIS_DB" "$WORK/candidate.key" "$WORK/sessions-$n.txt"
  java "$HERE/Storm.java" drafts "$WORK/sessions-$n.txt" "http://127.0.0.1:$ANSWER_PORT"
  read -r cpu_sub0 cpu_ans0 cpu_pg0 cpu_redis0 cpu_all0 <<<"$(storm_cpu_snapshot)"
  read -r jit_sub0 gc_sub0 <<<"$(jvm_threads_ms "$SUBMISSION_PID")"
  read -r groups0 grouped0 <<<"$(group_stats)"
  java -DdoubleClick="${DOUBLE_CLICK:-0.10}" -DsecondDevice="${SECOND_DEVICE:-0.05}" -DinFlight="$IN_FLIGHT" \
    "$HERE/Storm.java" storm "$WORK/sessions-$n.txt" "http://127.0.0.1:$SUBMISSION_PORT" "$WINDOW" "$WORK/storm-$n.md"
  read -r cpu_sub1 cpu_ans1 cpu_pg1 cpu_redis1 cpu_all1 <<<"$(storm_cpu_snapshot)"
  read -r jit_sub1 gc_sub1 <<<"$(jvm_threads_ms "$SUBMISSION_PID")"
  read -r groups1 grouped1 <<<"$(group_stats)"
  exam_id="$(awk -F'|' '/\| exam \|/ {gsub(/ /, "", $3); print $3}' "$WORK/storm-$n.md")"
  db_check="$(psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -tAc \
    "SELECT count(*) || ' papers, ' || count(DISTINCT session_id) || ' sessions' FROM exam_submission.papers WHERE exam_id = '$exam_id'")"
  # The outbox: every paper published to the stream and every session told, after the storm.
  pending_sql="SELECT count(*) FROM exam_submission.outbox WHERE exam_id = '$exam_id' AND last_sent_at IS NULL"
  drained_after=""
  for waited in $(seq 0 120); do
    if [ "$(psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -tAc "$pending_sql")" = "0" ]; then
      drained_after="${waited} s after the storm"
      break
    fi
    sleep 1
  done
  outbox="$(psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -tAc \
    "SELECT count(*) FILTER (WHERE kind = 'PAPER_PUBLISH' AND last_sent_at IS NOT NULL) || ' published, ' ||
            count(*) FILTER (WHERE kind = 'SESSION_SUBMITTED' AND done_at IS NOT NULL) || ' sessions told, ' ||
            count(*) FILTER (WHERE last_sent_at IS NULL) || ' pending'
     FROM exam_submission.outbox WHERE exam_id = '$exam_id'")"
  {
    echo
    echo "## $n sessions"
    echo
    cat "$WORK/storm-$n.md"
    echo "| PostgreSQL (unique per session) | $db_check |"
    echo "| outbox (drained ${drained_after:-not within 120 s}) | $outbox |"
    # CPU per paper during the storm (the relay runs in it too); machine = every core's busy time in ticks.
    awk -v n="$n" -v s="$((cpu_sub1 - cpu_sub0))" -v a="$((cpu_ans1 - cpu_ans0))" -v p="$((cpu_pg1 - cpu_pg0))" \
        -v r="$((cpu_redis1 - cpu_redis0))" -v m="$(( (cpu_all1 - cpu_all0) * 1000 / TICK ))" 'BEGIN {
      printf "| CPU ms per paper: submission-service / answer-service / PostgreSQL (all) / Redis (shared) | %.2f / %.2f / %.2f / %.2f |\n", s / n, a / n, p / n, r / n
      printf "| CPU s during the storm: submission / answer / PostgreSQL / Redis / whole machine | %.1f / %.1f / %.1f / %.1f / %.1f |\n", s / 1000, a / 1000, p / 1000, r / 1000, m / 1000 }'
    driver_s="$(awk -F'|' '/driver CPU s/ {gsub(/ /, "", $3); print $3}' "$WORK/storm-$n.md")"
    awk -v n="$n" -v m="$(( (cpu_all1 - cpu_all0) * 1000 / TICK ))" -v d="${driver_s:-0}" 'BEGIN {
      printf "| machine CPU ms per paper, all but the driver (every core busy time; other work on the machine counts too) | %.2f |\n", (m - d * 1000) / n }'
    awk -v g="$((groups1 - groups0))" -v p="$(awk -v a="$grouped1" -v b="$grouped0" 'BEGIN { printf "%d", a - b }')" 'BEGIN {
      printf "| papers built per group (groups): mean | %.1f (%d groups) |\n", (g > 0 ? p / g : 0), g }'
    echo "| submission-service CPU s in JIT compiler / GC threads (of the above) | $(awk -v j="$((jit_sub1 - jit_sub0))" -v g="$((gc_sub1 - gc_sub0))" 'BEGIN { printf "%.1f / %.1f", j / 1000, g / 1000 }') |"
  } >>"$OUT"
done
# Peak RSS of each service JVM over the whole run (the budget is 300 MiB per service JVM).
peak_rss() { awk '/VmHWM/ { printf "%d MiB", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "gone (exited)"; }
{
  echo
  echo "Peak RSS (VmHWM) over the run: submission-service $(peak_rss "$SUBMISSION_PID") (${JAVA_OPTS_SUBMISSION:-${JAVA_OPTS:-default flags}}), answer-service $(peak_rss "$ANSWER_PID") (${JAVA_OPTS_ANSWER:-${JAVA_OPTS:-default flags}})."
} >>"$OUT"
grep -h "ERROR" "$WORK/submission-service.log" | head -5 >>"$OUT" || true
cat "$OUT"
echo "report: $OUT"
