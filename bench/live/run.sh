#!/usr/bin/env bash
# Live-channel benchmark (issue 20's load): SESSIONS candidate sockets on one session-service
# replica (the live channel, /api/v1/sessions/{id}/live, as the SDK opens it), then one exam-wide
# command (pause, then resume: a PAUSED/RESUMED to every socket) timed from the API call to each
# socket. Reports connect rate, memory per socket (RSS), the replica's CPU, and delivery latency.
# Starts its own session-service on BENCH_PORT (bench/lib.sh: throw-away keys, database
# exam_bench, Redis db 5), seeds through the API (bench/heartbeat/Seed.java), drives with Node
# and the ws package (exam-client's devDependency).
#
#   bench/live/run.sh                           # 10,000 sockets
#   SESSIONS=500 bench/live/run.sh              # a smoke
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/../lib.sh" # bench_start, bench_session_defaults, bench_session_service, bench_session_cleanup
SESSIONS="${SESSIONS:-10000}"
IN_FLIGHT="${IN_FLIGHT:-200}" # sockets being opened at once
BENCH_PORT="${BENCH_PORT:-18092}"
REDIS_DB="${REDIS_DB:-5}" # autosave 2, deadline storm 3, heartbeat 4
# The bench measures what a replica can hold, not its configured cap (exam.live.max-sockets, 5,000).
export EXAM_LIVE_MAX_SOCKETS="${EXAM_LIVE_MAX_SOCKETS:-$SESSIONS}"
bench_session_defaults

bench_start live-bench node openssl psql curl
ulimit -n 65536 2>/dev/null || true
[ -d "$ROOT/exam-client/node_modules/ws" ] || (cd "$ROOT/exam-client" && npm ci --no-audit --no-fund >/dev/null)
if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl session-service -am package -DskipTests)
fi

keep_log_and_clean() { [ -f "$WORK/service.log" ] && cp "$WORK/service.log" "$RESULTS/$STAMP-service.log"; bench_session_cleanup; }
trap keep_log_and_clean EXIT
bench_session_service
java "$ROOT/bench/heartbeat/Seed.java" "$URL" "$SESSIONS" "$WORK/operator.key" "$WORK/sessions.txt"
load="$(cut -d' ' -f1-3 /proc/loadavg)"
node "$HERE/sockets.mjs" "$URL" "$WORK/sessions.txt" "$WORK/sessions.txt.operator" "$(cat "$WORK/sessions.txt.exam")" \
  "$SERVICE_PID" "$IN_FLIGHT" >"$WORK/summary.json"
cp "$WORK/summary.json" "$RESULTS/$STAMP.json"
s() { node -e "const j=require('$WORK/summary.json'); console.log($1)"; }
{
  echo "# Live-channel benchmark $STAMP"
  echo
  echo "Host: $(nproc) cores, $(uname -sr); $SESSIONS sessions, $IN_FLIGHT sockets opened at once; driver (Node, ws) on the same host; load average $load before the sockets."
  echo
  echo "| sockets open | failed | connects/s | connect p50 / p99 | replica CPU per connect | RSS before → open (peak) | per socket |"
  echo "|---|---|---|---|---|---|---|"
  echo "| $(s j.sockets) | $(s j.failed) | $(s j.connectPerSecond) | $(s j.connectP50) / $(s j.connectP99) ms | $(s 'j.connectCpuMsPerSocket.toFixed(2)') ms | $(s j.rssBeforeMiB) → $(s j.rssOpenMiB) MiB ($(s j.rssPeakMiB)) | $(s j.kibPerSocket) KiB |"
  echo
  echo "| exam-wide command | API answered | delivered | first | p50 | p99 | max |"
  echo "|---|---|---|---|---|---|---|"
  echo "| pause (PAUSED to every socket) | $(s j.paused.answeredMs) ms | $(s j.paused.delivered) | $(s j.paused.first) ms | $(s j.paused.p50) ms | $(s j.paused.p99) ms | $(s j.paused.max) ms |"
  echo "| resume (RESUMED) | $(s j.resumed.answeredMs) ms | $(s j.resumed.delivered) | $(s j.resumed.first) ms | $(s j.resumed.p50) ms | $(s j.resumed.p99) ms | $(s j.resumed.max) ms |"
  echo
  [ "$(s j.serviceAlive)" = true ] || echo "**The replica died while the sockets were opened** (its log: bench/live/results/$STAMP-service.log)."
  echo
  echo "Latency from the operator's POST to each socket's message; replica CPU for the two commands $(s 'j.commandCpuMsPerSocket.toFixed(3)') ms per socket and command. Service JVM: $JAVA_OPTS, MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX."
} >"$OUT"
cat "$OUT"
echo
echo "results: $OUT"
