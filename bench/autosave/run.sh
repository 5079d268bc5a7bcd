#!/usr/bin/env bash
# Autosave benchmark (issue 3): realistic autosaves against answer-service next to the
# ceiling endpoint (parse + one Redis Lua call), measured in the same run, at several
# connection counts. Starts its own answer-service on BENCH_PORT with throw-away keys,
# database exam_bench and Redis db 2, so it never touches a running suite or the tests.
#
#   bench/autosave/run.sh                          # the full run (minutes; quiet machine!)
#   DURATION=3 WARMUP=2 CONNECTIONS=50 SESSIONS=200 bench/autosave/run.sh   # a smoke
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # pub, field, cpu_ticks, cpu_snapshot, rsa_key_pairs, bench_start, ensure_database, bench_command, bench_ready
SESSIONS="${SESSIONS:-5000}"
CONNECTIONS="${CONNECTIONS:-50 200 1000}"
DURATION="${DURATION:-30}"
WARMUP="${WARMUP:-30}"
# CELL_WARMUP: seconds of the same target, discarded, right before each measured run (the JIT
# of JDK 17 flushes code the other target's run left cold; see README "Comparing a change")
CELL_WARMUP="${CELL_WARMUP:-0}"
THREADS="${THREADS:-2}"
BENCH_PORT="${BENCH_PORT:-18082}"
REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
REDIS_PORT="${REDIS_PORT:-6379}"
REDIS_DB="${REDIS_DB:-2}"
# WAIT_REPLICAS=1: the durability of the production Redis (docs/answer-durability.md): the
# bench starts its own Redis with one replica (ports REPLICA_PORTS, AOF everysec on both) and
# answer-service acknowledges an autosave only once the replica has it (Redis WAIT).
WAIT_REPLICAS="${WAIT_REPLICAS:-0}"
REPLICA_PORTS="${REPLICA_PORTS:-6391 6392}"
# REPLICATED=1 with WAIT_REPLICAS=0: the same master + replica, acknowledged without WAIT (the A/B of WAIT alone).
REPLICATED="${REPLICATED:-$([ "$WAIT_REPLICAS" -gt 0 ] && echo 1 || echo 0)}"
DB_NAME="${DB_NAME:-exam_bench}"
# JAR: another build of the service (e.g. a copy of target/quarkus-app, for an A/B while target is rebuilt)
JAR="${JAR:-$ROOT/answer-service/target/quarkus-app/quarkus-run.jar}"
# The service's JVM flags as ./exam and the chart run it (their reasons: the chart's values.yaml).
JAVA_OPTS="${JAVA_OPTS-$(java_flags_for answer-service)}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
URL="http://127.0.0.1:$BENCH_PORT"

bench_start autosave-bench wrk openssl
ulimit -n 65536 2>/dev/null || true

if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl answer-service -am package -DskipTests)
fi

# Throw-away key pairs: the benchmark mints its own candidate tokens.
rsa_key_pairs "$WORK" candidate operator service

ensure_database "${EXAM_DB_HOST:-127.0.0.1}" "${EXAM_DB_USER:-postgres}" "$DB_NAME"

REPLICATED_PIDS=()
if [ "$REPLICATED" = 1 ]; then
  read -r master_port replica_port <<<"$REPLICA_PORTS"
  for port in "$master_port" "$replica_port"; do
    if redis-cli -p "$port" PING >/dev/null 2>&1; then
      echo "port $port is taken (an earlier run's Redis? REPLICA_PORTS chooses others)"
      exit 1
    fi
  done
  for port in "$master_port" "$replica_port"; do
    mkdir -p "$WORK/redis-$port"
    extra=()
    [ "$port" = "$replica_port" ] && extra=(--replicaof 127.0.0.1 "$master_port")
    redis-server --port "$port" --bind 127.0.0.1 --dir "$WORK/redis-$port" --appendonly yes --appendfsync everysec \
      --save "" --daemonize yes --pidfile "$WORK/redis-$port/redis.pid" --logfile "$WORK/redis-$port/redis.log" "${extra[@]}"
  done
  for _ in $(seq 1 50); do
    redis-cli -p "$replica_port" INFO replication 2>/dev/null | grep -q 'master_link_status:up' && break
    sleep 0.2
  done
  redis-cli -p "$replica_port" INFO replication | grep -q 'master_link_status:up' ||
    { echo "the bench's Redis replica on $replica_port did not sync (ports $REPLICA_PORTS taken?)"; exit 1; }
  REPLICATED_PIDS=("$(cat "$WORK/redis-$master_port/redis.pid")" "$(cat "$WORK/redis-$replica_port/redis.pid")")
  REDIS_HOST=127.0.0.1 REDIS_PORT="$master_port"
fi

SERVICE_PID=""
cleanup() {
  if [ -n "$SERVICE_PID" ]; then kill "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; fi
  # This run's rows in PostgreSQL (its sessions only): left in place, every run made the
  # tables bigger and the next run slower.
  if [ -s "$WORK/sessions.txt" ]; then
    awk '{print $1}' "$WORK/sessions.txt" >"$WORK/ids.txt"
    psql -h "${EXAM_DB_HOST:-127.0.0.1}" -U "${EXAM_DB_USER:-postgres}" -d "$DB_NAME" -q >/dev/null 2>&1 <<SQL || true
CREATE TEMP TABLE bench_ids (id text PRIMARY KEY);
\copy bench_ids FROM '$WORK/ids.txt'
DELETE FROM exam_answer.answer_history h USING bench_ids b WHERE h.session_id = b.id;
DELETE FROM exam_answer.draft d USING bench_ids b WHERE d.session_id = b.id;
-- The deleted rows stay as dead tuples until a vacuum, and autovacuum may be off (it is on
-- the CI machines): without this every run made the next one slower.
VACUUM (ANALYZE) exam_answer.answer_history, exam_answer.draft;
SQL
  fi
  # Only the benchmark's own keys (its sessions, exam and ceiling hashes) in its own db.
  if command -v redis-cli >/dev/null; then
    for pattern in '*{autosave-bench-*' '*{exam:autosave-bench-*' 'ans:{bench:*'; do
      redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" -n "$REDIS_DB" --scan --pattern "$pattern" \
        | xargs -r -n 500 redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" -n "$REDIS_DB" DEL >/dev/null
    done
    # The write-behind log (RedisKeys.writeBehindLog, 16 shards) in its own db holds only its
    # sessions' changes: a run with the write-behind off (EXAM_ANSWER_WRITE_BEHIND=false) leaves
    # them there, for the next run to flush in vain.
    for shard in $(seq 0 15); do
      redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" -n "$REDIS_DB" DEL "ans:{wb:$shard}:log" >/dev/null
    done
  fi
  if [ "${#REPLICATED_PIDS[@]}" -gt 0 ]; then kill "${REPLICATED_PIDS[@]}" 2>/dev/null || true; fi
  cp -f "$WORK/service.log" "$RESULTS/$STAMP-service.log" 2>/dev/null || true # kept beside the results
  rm -rf "$WORK"
}
trap cleanup EXIT

EXAM_HTTP_PORT="$BENCH_PORT" EXAM_DB_NAME="$DB_NAME" \
EXAM_REDIS_URL="redis://$REDIS_HOST:$REDIS_PORT/$REDIS_DB" EXAM_REDIS_WAIT_REPLICAS="$WAIT_REPLICAS" \
EXAM_CANDIDATE_PUBLIC_KEY="$(pub "$WORK/candidate.pub")" \
EXAM_OPERATOR_PUBLIC_KEY="$(pub "$WORK/operator.pub")" \
EXAM_SERVICE_PUBLIC_KEY="$(pub "$WORK/service.pub")" \
EXAM_SERVICE_PRIVATE_KEY="$(cat "$WORK/service.key")" \
EXAM_BENCH_CEILING=true QUARKUS_OTEL_SDK_DISABLED="${QUARKUS_OTEL_SDK_DISABLED:-true}" \
QUARKUS_LOG_CONSOLE_JSON_ENABLED=false \
  $(bench_command answer-service "${JAVA_OPTS:-}" "$JAR") >"$WORK/service.log" 2>&1 &
SERVICE_PID=$!
bench_ready answer-service "$SERVICE_PID" "$BENCH_PORT" "$WORK/service.log"

java "$HERE/Seed.java" "$SESSIONS" "$REDIS_HOST" "$REDIS_PORT" "$REDIS_DB" "$WORK/candidate.key" "$WORK/sessions.txt"
export BENCH_SESSIONS="$WORK/sessions.txt" BENCH_DIR="$HERE"

run_wrk() { # target (autosave|ceiling) connections duration -> wrk output file
  local target=$1 c=$2 d=$3 out=$4
  BENCH_TARGET="$target" wrk -t"$THREADS" -c"$c" -d"${d}s" --timeout 10s --latency -s "$HERE/wrk.lua" "$URL" >"$out" 2>&1 || true
}
per_request() { # snapshot-before snapshot-after wrk-output -> "a / b / c" CPU µs per request
  local n; n=$(field "$3" requests)
  python3 -c "import os,sys; b=list(map(int,sys.argv[1].split())); a=list(map(int,sys.argv[2].split())); n=max(int(sys.argv[3] or 0),1); hz=os.sysconf('SC_CLK_TCK'); print(' / '.join(f'{(y-x)*1e6/hz/n:.0f}' for x,y in zip(b,a)))" "$1" "$2" "${n:-0}"
}
machine_share() { # /proc/stat's first line before and after a run -> its idle, iowait and steal shares
  # An idle share well above zero means the run was not bound by the machine's CPU.
  paste "$1" "$2" | awk '{h = NF / 2; t = 0; for (i = 2; i <= h; i++) t += $(h+i) - $i;
    printf "%.0f %% idle, %.0f %% iowait, %.0f %% steal\n", 100 * ($(h+5) - $5) / t, 100 * ($(h+6) - $6) / t, 100 * ($(h+9) - $9) / t}'
}
wait_for_flush() { # until nothing waits for the write-behind (at most 60 s)
  for _ in $(seq 1 600); do
    v=$(curl -sf "$URL/q/metrics" | awk '/^exam_answer_persist_backlog_age_seconds/ {print $2}')
    [ "${v:-0}" = "0.0" ] || [ "${v:-0}" = "0" ] && return 0
    sleep 0.1
  done
}

echo "warm-up: ${WARMUP}s autosave + ${WARMUP}s ceiling at 200 connections (discarded)"
run_wrk autosave 200 "$WARMUP" "$WORK/warm-a.txt"
run_wrk ceiling 200 "$WARMUP" "$WORK/warm-c.txt"
wait_for_flush

{
  echo "# Autosave benchmark $STAMP"
  echo
  echo "Host: $(nproc) cores, $(uname -sr); sessions: $SESSIONS; wrk -t$THREADS, ${DURATION}s per cell (warm-up ${WARMUP}s per target, ${CELL_WARMUP}s before each cell); load generator on the same host; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
  if [ "$REPLICATED" = 1 ]; then
    echo
    echo "Redis: a master and one replica (AOF everysec), autosaves acknowledged after WAIT $WAIT_REPLICAS (EXAM_REDIS_WAIT_REPLICAS; 0: no WAIT); Redis CPU is the master's and the replica's together."
  fi
  echo
  echo "| connections | endpoint | req/s | p50 | p99 | non-2xx | socket errors | persist lag p50 / p99 (s) | % of ceiling | CPU µs/req service / Redis / PostgreSQL |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$OUT"

thread_ticks() { # "name ticks" per thread of the service (thread names with spaces joined by _)
  for t in /proc/"$SERVICE_PID"/task/*; do
    [ -r "$t/stat" ] || continue
    printf '%s %s\n' "$(tr ' ' '_' <"$t/comm")" "$(awk '{sub(/.*\) /, ""); print $12 + $13}' "$t/stat" 2>/dev/null || echo 0)"
  done | awk '{sub(/-?[0-9]+$/, "#", $1); n[$1] += $2} END {for (k in n) print k, n[k]}' | sort
}

for c in $CONNECTIONS; do
  if [ "$CELL_WARMUP" -gt 0 ]; then run_wrk autosave "$c" "$CELL_WARMUP" "$WORK/cw-a.txt"; wait_for_flush; fi
  curl -sf "$URL/q/metrics" >"$WORK/before.txt"
  # Beside the results, per autosave run: the service's CPU per thread kind (event loops, C2/C1
  # compiler, VM_Thread = Serial GC), its GC counts and times (jstat), and Redis' CPU per command.
  # PROFILE=<dir>: also a JFR recording (settings=profile) of each autosave run only. Starting
  # JFR makes the JIT recompile much of the hot code, so its compiler CPU counts in that run.
  if [ -n "${PROFILE:-}" ]; then
    mkdir -p "$PROFILE"
    jcmd "$SERVICE_PID" JFR.start name=autosave settings=profile filename="$PROFILE/autosave-$c.jfr" >/dev/null
  fi
  thread_ticks >"$WORK/threads0.txt"
  jstat -gc "$SERVICE_PID" 2>/dev/null | tail -1 >"$WORK/gc0.txt" || true
  redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" INFO commandstats >"$WORK/redis0.txt" 2>/dev/null || true
  cpu0=$(cpu_snapshot "$SERVICE_PID")
  head -1 /proc/stat >"$WORK/machine0.txt"
  run_wrk autosave "$c" "$DURATION" "$WORK/a-$c.txt"
  head -1 /proc/stat >"$WORK/machine1.txt"
  wait_for_flush # the write-behind's CPU belongs to the autosaves
  cpu1=$(cpu_snapshot "$SERVICE_PID")
  thread_ticks >"$WORK/threads1.txt"
  jstat -gc "$SERVICE_PID" 2>/dev/null | tail -1 >"$WORK/gc1.txt" || true
  redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" INFO commandstats >"$WORK/redis1.txt" 2>/dev/null || true
  if [ -n "${PROFILE:-}" ]; then
    jcmd "$SERVICE_PID" JFR.stop name=autosave >/dev/null
  fi
  STATS="$RESULTS/$STAMP-autosave-$c.stats.txt"
  n=$(field "$WORK/a-$c.txt" requests)
  {
    echo "service CPU per thread kind (µs per request):"
    join "$WORK/threads0.txt" "$WORK/threads1.txt" | awk -v n="${n:-1}" -v hz="$(getconf CLK_TCK)" \
      '{d = ($3 - $2) * 1e6 / hz / n; if (d >= 0.5) printf "  %-40s %6.1f\n", $1, d}' | sort -k2 -nr
    # jstat -gc columns (JDK 17): ... YGC YGCT FGC FGCT CGC CGCT GCT
    paste "$WORK/gc0.txt" "$WORK/gc1.txt" | awk '{h = NF / 2; printf "GC over the run: %d young (%.3f s), %d full (%.3f s)\n", $(h+h-6) - $(h-6), $(h+h-5) - $(h-5), $(h+h-4) - $(h-4), $(h+h-3) - $(h-3)}'
    echo "machine CPU over the autosave run: $(machine_share "$WORK/machine0.txt" "$WORK/machine1.txt")"
    echo "Redis CPU per command (commands inside scripts count under their own name too):"
    python3 - "$WORK/redis0.txt" "$WORK/redis1.txt" "${n:-1}" <<'PY'
import re, sys
def stats(path):
    out = {}
    for line in open(path):
        m = re.match(r'cmdstat_(\S+):calls=(\d+),usec=(\d+)', line)
        if m:
            out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out
a, b, n = stats(sys.argv[1]), stats(sys.argv[2]), max(int(sys.argv[3]), 1)
rows = [(k, b[k][0] - a.get(k, (0, 0))[0], b[k][1] - a.get(k, (0, 0))[1]) for k in b]
for k, calls, usec in sorted(rows, key=lambda r: -r[2]):
    if usec > 0:
        print(f"  {k:24} {calls / n:8.2f} calls/req {usec / n:8.2f} us/req")
PY
  } >"$STATS" 2>&1 || true
  curl -sf "$URL/q/metrics" >"$WORK/after.txt"
  read -r lag50 lag99 _ < <(python3 "$HERE/lag.py" "$WORK/before.txt" "$WORK/after.txt")
  if [ "$CELL_WARMUP" -gt 0 ]; then run_wrk ceiling "$c" "$CELL_WARMUP" "$WORK/cw-c.txt"; cpu1=$(cpu_snapshot "$SERVICE_PID"); fi
  head -1 /proc/stat >"$WORK/machine2.txt"
  run_wrk ceiling "$c" "$DURATION" "$WORK/c-$c.txt"
  head -1 /proc/stat >"$WORK/machine3.txt"
  cpu2=$(cpu_snapshot "$SERVICE_PID")
  echo "machine CPU over the ceiling run: $(machine_share "$WORK/machine2.txt" "$WORK/machine3.txt")" >>"$STATS"
  a=$(field "$WORK/a-$c.txt" rps); ce=$(field "$WORK/c-$c.txt" rps)
  pct=$(python3 -c "print(f'{100*float(\"${a:-0}\")/max(float(\"${ce:-0}\"),1e-9):.0f} %')")
  cpua=$(per_request "$cpu0" "$cpu1" "$WORK/a-$c.txt"); cpuc=$(per_request "$cpu1" "$cpu2" "$WORK/c-$c.txt")
  echo "| $c | autosave | $a | $(field "$WORK/a-$c.txt" p50) | $(field "$WORK/a-$c.txt" p99) | $(field "$WORK/a-$c.txt" non2xx) | $(field "$WORK/a-$c.txt" errors) | $lag50 / $lag99 | $pct | $cpua |" >>"$OUT"
  echo "| $c | ceiling | $ce | $(field "$WORK/c-$c.txt" p50) | $(field "$WORK/c-$c.txt" p99) | $(field "$WORK/c-$c.txt" non2xx) | $(field "$WORK/c-$c.txt" errors) | — | 100 % | $cpuc |" >>"$OUT"
  cp "$WORK/a-$c.txt" "$RESULTS/$STAMP-autosave-$c.wrk.txt"
  cp "$WORK/c-$c.txt" "$RESULTS/$STAMP-ceiling-$c.wrk.txt"
done

{
  echo
  echo "Service JVM: ${JAVA_OPTS:-(no JAVA_OPTS)}, MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX; peak RSS (VmHWM) $(awk '/VmHWM/ {printf "%d MiB", $2/1024}' "/proc/$SERVICE_PID/status"). CPU per request: each process's utime+stime over the run (autosave: until the write-behind drained) ÷ wrk's requests; PostgreSQL = all postgres processes (shared: other load counts too)."
} >>"$OUT"
cat "$OUT"
echo
echo "results: $OUT (raw wrk output beside it)"
