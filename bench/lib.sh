# Helpers shared by the bench/*/run.sh scripts that drive a service with wrk and read /proc.
# Sourced, not run: `. "$HERE/../lib.sh"`.

# java_flags_for SERVICE: the services' JVM flags, from their one source (the chart's values).
# shellcheck source=../k8s/chart/jvm-flags.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../k8s/chart/jvm-flags.sh"

# A key as the services take it: PEM without its header lines, on one line.
pub() { grep -v -- '-----' "$1" | tr -d '\n'; }

# One value out of a `wrk --latency` output file: rps, p50, p99, non2xx, requests or errors.
field() {
  case $2 in
    rps) awk '/^Requests\/sec/ {print $2}' "$1" ;;
    p50) awk '/^ +50%/ {print $2}' "$1" ;;
    p99) awk '/^ +99%/ {print $2}' "$1" ;;
    non2xx) awk '/Non-2xx/ {n=$NF} END {print n+0}' "$1" ;;
    requests) awk '/requests in/ {print $1}' "$1" ;;
    errors) awk '/Socket errors/ {sub(/.*Socket errors: /, ""); e=$0} END {print (e == "" ? "none" : e)}' "$1" ;;
  esac
}

# utime+stime (clock ticks) of the given pids, summed; vanished pids count 0.
cpu_ticks() {
  local t=0 p
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] || continue
    t=$((t + $(awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}

# Throw-away RSA-2048 key pairs <dir>/<kind>.key (PKCS#8) and <dir>/<kind>.pub, one per kind.
rsa_key_pairs() {
  local dir=$1 kind
  shift
  for kind in "$@"; do
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/$kind.key" 2>/dev/null
    openssl pkey -in "$dir/$kind.key" -pubout -out "$dir/$kind.pub" 2>/dev/null
  done
}

# "service redis postgres" CPU ticks: the given service pid, redis-server, every postgres process.
cpu_snapshot() {
  echo "$(cpu_ticks "$1") $(cpu_ticks $(pgrep -x redis-server || true)) $(cpu_ticks $(pgrep -x postgres || true))"
}

# One run's files and prerequisites: exits unless every command named is installed, then sets
# STAMP (UTC, the report's name), WORK (a scratch directory the script's cleanup removes),
# RESULTS (created) and OUT (the report).
bench_start() { # scratch-name command...
  local name=$1 command
  shift
  for command in "$@"; do
    command -v "$command" >/dev/null || { echo "$command is needed (the benchmark's README says what to install)"; exit 1; }
  done
  STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")"
  RESULTS="$HERE/results"
  OUT="$RESULTS/$STAMP.md"
  mkdir -p "$RESULTS"
}

# The database on the PostgreSQL server, created when missing.
ensure_database() { # host user name
  psql -h "$1" -U "$2" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$3'" | grep -q 1 \
    || psql -h "$1" -U "$2" -d postgres -qc "CREATE DATABASE $3"
}

# The settings of a benchmark's own session-service that the caller did not set: Redis and
# PostgreSQL addresses, database exam_bench, the jar, ./exam up's JVM flags for session-service
# (./exam bench passes them as JAVA_OPTS_SESSION). ROOT must be set.
bench_session_defaults() {
  REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
  REDIS_PORT="${REDIS_PORT:-6379}"
  DB_NAME="${DB_NAME:-exam_bench}"
  DB_HOST="${EXAM_DB_HOST:-127.0.0.1}"
  DB_USER="${EXAM_DB_USER:-postgres}"
  JAR="${JAR:-$ROOT/session-service/target/quarkus-app/quarkus-run.jar}"
  JAVA_OPTS="${JAVA_OPTS_SESSION-$(java_flags_for session-service)}"
  export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
}

# bench_ready NAME PID PORT LOG [NAME PID PORT LOG ...]: returns once each service answers 200 on
# 127.0.0.1:PORT/q/health/ready; exits with its log when it ends first or is not ready within
# READY_TIMEOUT s (240: on a machine busy with builds a JVM start has taken over two minutes).
# Probes every 20 ms with bash's /dev/tcp (no process per probe). READY_MS: the last one's time
# from its process's start (fork; /proc/PID/stat, 10 ms ticks) to 200. With BENCH_READY_FILE
# (./exam bench --compare): 5 s later, before any load, "NAME READY_MS IDLE_RSS_KIB" lines into it.
bench_ready() {
  local left=("$@") next ready=() hz fd status up st i deadline=$((SECONDS + ${READY_TIMEOUT:-240}))
  hz="$(getconf CLK_TCK)"
  while [ "${#left[@]}" -gt 0 ]; do
    next=()
    for ((i = 0; i < ${#left[@]}; i += 4)); do
      set -- "${left[@]:i:4}"
      status=""
      if exec {fd}<>"/dev/tcp/127.0.0.1/$3"; then
        printf 'GET /q/health/ready HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&"$fd"
        read -r -t 10 _ status _ <&"$fd" || true
        exec {fd}>&-
      fi 2>/dev/null
      if [ "$status" = 200 ]; then
        read -r up _ </proc/uptime && read -r st <"/proc/$2/stat" && st=(${st##*) })
        READY_MS=$((${up/./}0 - st[19] * 1000 / hz)) && ready+=("$1 $READY_MS $2")
      elif ! kill -0 "$2" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
        echo "$1 did not get ready (its log: $4)"; tail -n 50 "$4"; exit 1
      else next+=("$@"); fi
    done
    left=("${next[@]}")
    [ "${#left[@]}" -eq 0 ] || sleep 0.02
  done
  [ -n "${BENCH_READY_FILE:-}" ] || return 0
  sleep 5
  for i in "${ready[@]}"; do
    set -- $i
    echo "$1 $2 $(awk '/^VmRSS/ { print $2 }' "/proc/$3/status")" >>"$BENCH_READY_FILE"
  done
}

# A service's start command, with the system properties -Dk=v... given: BENCH_COMMAND_<SESSION|
# ANSWER|SUBMISSION|GRADING> when set (./exam bench --native: the native executable with its flags,
# ./exam's service_command), else java JVM-FLAGS -jar JAR, the JVM build.
bench_command() { # service jvm-flags jar [-Dk=v...]
  local var="BENCH_COMMAND_${1%%-*}"
  var="${var^^}"
  if [ -n "${!var:-}" ]; then echo "${!var} ${*:4}"; else echo "java $2 ${*:4} -Dexam.service=$1 -jar $3"; fi
}

# A session-service of the benchmark's own: throw-away keys in $WORK (candidate, operator,
# service), database DB_NAME, Redis db REDIS_DB, on BENCH_PORT, with JAVA_OPTS. Sets SERVICE_PID
# and URL; returns once it is ready (exits with its log if it is not).
bench_session_service() {
  rsa_key_pairs "$WORK" candidate operator service
  ensure_database "$DB_HOST" "$DB_USER" "$DB_NAME"
  URL="http://127.0.0.1:$BENCH_PORT"
  EXAM_HTTP_PORT="$BENCH_PORT" EXAM_DB_NAME="$DB_NAME" \
  EXAM_REDIS_URL="redis://$REDIS_HOST:$REDIS_PORT/$REDIS_DB" \
  EXAM_CANDIDATE_PUBLIC_KEY="$(pub "$WORK/candidate.pub")" \
  EXAM_CANDIDATE_PRIVATE_KEY="$(grep -v -- '-----' "$WORK/candidate.key" | tr -d '\n')" \
  EXAM_OPERATOR_PUBLIC_KEY="$(pub "$WORK/operator.pub")" \
  EXAM_SERVICE_PUBLIC_KEY="$(pub "$WORK/service.pub")" \
  EXAM_SERVICE_PRIVATE_KEY="$(cat "$WORK/service.key")" \
  QUARKUS_OTEL_SDK_DISABLED="${QUARKUS_OTEL_SDK_DISABLED:-true}" QUARKUS_LOG_CONSOLE_JSON_ENABLED=false \
    $(bench_command session-service "$JAVA_OPTS" "$JAR") >"$WORK/service.log" 2>&1 &
  SERVICE_PID=$!
  bench_ready session-service "$SERVICE_PID" "$BENCH_PORT" "$WORK/service.log"
}

# Stops the benchmark's session-service and deletes the seeded exam's rows and Redis keys
# (Seed.java wrote the exam id to $WORK/sessions.txt.exam), then $WORK.
bench_session_cleanup() {
  if [ -n "${SERVICE_PID:-}" ]; then kill "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; fi
  if [ -s "$WORK/sessions.txt.exam" ]; then
    local exam
    exam="$(cat "$WORK/sessions.txt.exam")"
    psql -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -q >/dev/null 2>&1 <<SQL || true
DELETE FROM exam_session.extension WHERE session_id IN (SELECT session_id FROM exam_session.session WHERE exam_id = '$exam');
DELETE FROM exam_session.session WHERE exam_id = '$exam';
DELETE FROM exam_session.candidate WHERE exam_id = '$exam';
DELETE FROM exam_session.audit_entry WHERE exam_id = '$exam';
DELETE FROM exam_session.exam WHERE exam_id = '$exam';
SQL
    if command -v redis-cli >/dev/null; then
      # one scan of the db, kept to the keys naming this run's exam or one of its sessions
      echo "$exam" >"$WORK/ids.txt"
      [ -s "$WORK/sessions.txt" ] && awk '{print "{" $1 "}"}' "$WORK/sessions.txt" >>"$WORK/ids.txt"
      redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" -n "$REDIS_DB" --scan | grep -F -f "$WORK/ids.txt" \
        | xargs -r -n 500 redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" -n "$REDIS_DB" DEL >/dev/null || true
    fi
  fi
  rm -rf "$WORK"
}
