#!/usr/bin/env bash
# drill/run.sh — ./exam drill (docs/drill.md): the demo's candidates on two replicas of every
# service behind nginx (playing the Kubernetes Ingress and Services), a Redis Cluster and a
# private PostgreSQL, while a seeded fault schedule kills, restarts, pauses and partitions them.
#
# Run it through ./exam drill, which builds what is missing and passes: EXAM_HOME, DRILL_DEMO_CP
# (exam-demo's class path), DRILL_OPERATOR_TOKEN, DRILL_COMMAND_<service> (./exam's service_command: a JVM or a native executable), the
# key variables and QUARKUS_PROFILE of export_service_env.
set -euo pipefail

DRILL_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
EXAM_HOME="${EXAM_HOME:-$(dirname "$DRILL_HOME")}"
DRILL_DIR="$EXAM_HOME/.exam/drill"
LOGS="$DRILL_DIR/logs"
STATE="$DRILL_DIR/state"
NGX="$DRILL_DIR/nginx"
PGDATA="$DRILL_DIR/pg"
PGRUN="$DRILL_DIR/pg-run"
REDIS_DIR="$DRILL_DIR/redis"
FAULTS_TSV="$DRILL_DIR/faults.tsv"
KEYS_DIR="$EXAM_HOME/.exam/keys"
PG_BIN="${DRILL_PG_BIN:-/usr/lib/postgresql/15/bin}"

# Ports (docs/drill.md): none of 8080–8084, 9080–9084, 6379, 7001–7006, 7101–7106, nor the
# benchmarks' 18082, 18091, 18181–18183, 18284, 18291 (bench/*/run.sh).
INGRESS_PORT=28080
PG_PORT=15432
REDIS_PORTS="7301-7306"
REDIS_STANDALONE_PORT=7301
SVCS=(session answer submission grading)
ALL_FAULTS=(kill rollingRestart redisMasterKill redisReplicaKill postgresRestart pause partition)
NFT_TABLE="exam_drill" # the only nftables table the drill creates (partition); deleted at the end

# --- options ---------------------------------------------------------------------------------
CANDIDATES=300
DURATION=180
NETWORK=weak
SEED="$(date +%s)"
FAULTS="all"
REDIS_MODE=cluster
JSON_OUT=""
WAIT_S=180
RAMP="" # seconds over which the candidates start; default max(10, candidates / 5)
usage() {
  cat <<'EOF'
usage: ./exam drill [--candidates N] [--duration S] [--network good|weak|hostile] [--seed N]
                    [--faults all|LIST] [--redis cluster|standalone] [--json FILE] [--wait S]
  --candidates  simulated candidates (300)          --duration  the exam's duration in s (180)
  --network     the demo's network faults (weak)    --seed      seeds the candidates and the fault schedule
  --faults      comma-separated: kill,rollingRestart,redisMasterKill,redisReplicaKill,
                postgresRestart,pause,partition (all)
  --redis       cluster (six nodes on 7301-7306) or standalone (one node on 7301)
  --json        write the run's summary there (JSON)
  --wait        seconds after deadline + grace to wait for papers and grading (180)
  --ramp        the candidates start spread over this many seconds (max(10, candidates / 5))
Logs: .exam/drill/logs; report: docs/reports/drill-*.html (docs/drill.md).
EOF
}
while [ "$#" -gt 0 ]; do
  case "$1" in
    --candidates) CANDIDATES="$2"; shift ;;
    --duration) DURATION="$2"; shift ;;
    --network) NETWORK="$2"; shift ;;
    --seed) SEED="$2"; shift ;;
    --faults) FAULTS="$2"; shift ;;
    --redis) REDIS_MODE="$2"; shift ;;
    --json) JSON_OUT="$2"; shift ;;
    --wait) WAIT_S="$2"; shift ;;
    --ramp) RAMP="$2"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "drill: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $SEED =~ ^[0-9]+$ ]] || { echo "drill: --seed needs a number" >&2; exit 2; }
# 300 session starts in the demo's 10 s on two loaded cores took 10-60 s each (beyond the clients'
# 5 s: every retry a new start): candidates arrive over a minute, as in a real exam room.
[ -n "$RAMP" ] || RAMP=$((CANDIDATES / 5 > 10 ? CANDIDATES / 5 : 10))
case "$REDIS_MODE" in cluster | standalone) ;; *) echo "drill: --redis cluster|standalone" >&2; exit 2 ;; esac
[ "$FAULTS" = all ] && FAULTS="$(IFS=,; echo "${ALL_FAULTS[*]}")"
for f in ${FAULTS//,/ }; do
  [[ " ${ALL_FAULTS[*]} " == *" $f "* ]] || { echo "drill: unknown fault '$f' (${ALL_FAULTS[*]})" >&2; exit 2; }
done
[ -n "$JSON_OUT" ] && JSON_OUT="$(cd "$(dirname "$JSON_OUT")" && pwd)/$(basename "$JSON_OUT")"
want_fault() { [[ ",$FAULTS," == *",$1,"* ]]; }

# --- small helpers ---------------------------------------------------------------------------
say() { printf 'drill: %s\n' "$*"; }
die() { printf 'drill: %s\n' "$*" >&2; exit 1; }
now_ms() { date +%s%3N; }
# Seeded random without a subshell ($(...) would not advance the caller's RANDOM): sets R.
rand() { R=$(($1 + RANDOM % ($2 - $1 + 1))); }
flog() { printf '%s %s\n' "$(date -u +%H:%M:%S.%3N)" "$*" >>"$LOGS/faults.log"; }
# One finished fault for the report: start, end (epoch ms), kind, target, detail.
record_fault() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$FAULTS_TSV"; flog "$3 $4 done: $5"; }

module_of() {
  case "$1" in session) echo session-service ;; answer) echo answer-service ;;
    submission) echo submission-service ;; grading) echo grading-saga ;; esac
}
svc_index() { case "$1" in session) echo 0 ;; answer) echo 1 ;; submission) echo 2 ;; grading) echo 3 ;; esac; }
# Replica NAME is <svc>-a or <svc>-b: a on 2808x, b on 2809x; the Service of svc on 2818x.
replica_port() { local i; i="$(svc_index "${1%-*}")"; if [ "${1##*-}" = a ]; then echo $((28081 + i)); else echo $((28091 + i)); fi; }
service_port() { echo $((28181 + $(svc_index "$1"))); }
# Every replica runs with a group id of its own, so that nftables can tell its sockets apart
# (meta skgid) for the partition; the user stays root (it reads the jars and .exam/keys).
replica_gid() { local b=1; [ "${1##*-}" = a ] && b=0; echo $((4300 + 2 * $(svc_index "${1%-*}") + b)); }
REPLICAS=()
for s in "${SVCS[@]}"; do REPLICAS+=("$s-a" "$s-b"); done

key() { sed '/-----/d' "$KEYS_DIR/$1.$2.pem" | tr -d '\n'; }
http_code() { curl -s -o /dev/null -m "${2:-2}" -w '%{http_code}' "$1" 2>/dev/null || true; }
pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
replica_pid() { cat "$STATE/$1.pid" 2>/dev/null || true; }
replica_ready() { [ "$(http_code "http://127.0.0.1:$(replica_port "$1")/q/health/ready")" = 200 ]; }

# --- PostgreSQL: a private cluster on 15432 (the drill restarts it; the machine's 5432 is others') --
as_pg_user() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- "$@"; }
pg_up() {
  [ -x "$PG_BIN/initdb" ] || die "no PostgreSQL binaries in $PG_BIN (DRILL_PG_BIN)"
  mkdir -p "$PGDATA" "$PGRUN"
  touch "$LOGS/postgresql.log"
  if [ "$(id -u)" = 0 ]; then chown nobody "$PGDATA" "$PGRUN" "$LOGS/postgresql.log"; chmod 700 "$PGDATA"; fi
  local run=()
  [ "$(id -u)" = 0 ] && run=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)
  if [ ! -f "$PGDATA/PG_VERSION" ]; then
    say "initdb of a private PostgreSQL in $PGDATA"
    "${run[@]}" "$PG_BIN/initdb" -D "$PGDATA" -U postgres --auth=trust -E UTF8 >"$LOGS/pg-initdb.log" 2>&1 ||
      die "initdb failed (log: $LOGS/pg-initdb.log)"
    cat >>"$PGDATA/postgresql.conf" <<EOF
# ./exam drill: eight replicas × (20 reactive + 2 JDBC) connections, the verifier, headroom.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PGRUN'
max_connections = 300
shared_buffers = 128MB
EOF
  fi
  "${run[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$LOGS/postgresql.log" -w -t 60 start >/dev/null ||
    die "PostgreSQL did not start (log: $LOGS/postgresql.log)"
  psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'exam'" | grep -q 1 ||
    psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -c 'CREATE DATABASE exam' >/dev/null
  say "PostgreSQL (private) on 127.0.0.1:$PG_PORT, database exam"
}
pg_ctl_drill() {
  if [ "$(id -u)" = 0 ]; then as_pg_user "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$LOGS/postgresql.log" "$@"
  else "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$LOGS/postgresql.log" "$@"; fi
}
pg_down() { [ -f "$PGDATA/postmaster.pid" ] && pg_ctl_drill -m fast -w -t 60 stop >/dev/null 2>&1 || true; }

# --- Redis ------------------------------------------------------------------------------------
redis_up() {
  if [ "$REDIS_MODE" = cluster ]; then
    "$EXAM_HOME/exam" cluster up --ports "$REDIS_PORTS" --dir "$REDIS_DIR" >"$LOGS/redis-cluster.log" 2>&1 ||
      { tail -n 20 "$LOGS/redis-cluster.log" >&2; die "the Redis Cluster did not come up (log: $LOGS/redis-cluster.log)"; }
    REDIS_URL="$(tail -n 1 "$LOGS/redis-cluster.log")"
    say "Redis Cluster on $REDIS_PORTS ($REDIS_DIR)"
  else
    mkdir -p "$DRILL_DIR/redis-standalone"
    redis-server --port "$REDIS_STANDALONE_PORT" --bind 127.0.0.1 --appendonly yes --appendfsync everysec --save "" \
      --dir "$DRILL_DIR/redis-standalone" --daemonize yes --pidfile "$DRILL_DIR/redis-standalone/redis.pid" \
      --logfile "$LOGS/redis-standalone.log" || die "redis-server did not start"
    until redis-cli -p "$REDIS_STANDALONE_PORT" ping >/dev/null 2>&1; do sleep 0.2; done
    REDIS_URL="redis://127.0.0.1:$REDIS_STANDALONE_PORT"
    say "Redis (standalone, AOF) on $REDIS_STANDALONE_PORT"
  fi
}
redis_down() {
  if [ "$REDIS_MODE" = cluster ]; then
    "$EXAM_HOME/exam" cluster down --dir "$REDIS_DIR" >>"$LOGS/redis-cluster.log" 2>&1 || true
  else
    local pid
    pid="$(cat "$DRILL_DIR/redis-standalone/redis.pid" 2>/dev/null || true)"
    [[ "$(ps -ww -p "${pid:-0}" -o args= 2>/dev/null)" == *"redis-server"*":$REDIS_STANDALONE_PORT"* ]] && kill -TERM "$pid" 2>/dev/null || true
  fi
}
# "port pid role masterport" per node (./exam cluster status).
cluster_nodes() { "$EXAM_HOME/exam" cluster status --dir "$REDIS_DIR" 2>/dev/null | awk '$1 ~ /^[0-9]+$/'; }

# --- nginx: the Ingress (28080, /api/v1 prefixes of the chart only) and one Service per service --
# The chart's routes (k8s/chart/exam-suite/templates/_helpers.tpl, "exam-suite.catalogue").
chart_routes() {
  sed -n '/define "exam-suite.catalogue"/,/end -/p' "$EXAM_HOME/k8s/chart/exam-suite/templates/_helpers.tpl" |
    awk -v want="$1" '/^[a-z]+:$/ { key = substr($1, 1, length($1) - 1) }
      /^  routes:/ && key == want { r = $0; sub(/.*\[/, "", r); sub(/\].*/, "", r); gsub(/,/, " ", r); print r }'
}
render_nginx() {
  local s r name down
  {
    cat <<EOF
# Generated by drill/run.sh for ./exam drill — do not edit (docs/drill.md).
worker_processes 1;
pid $NGX/nginx.pid;
error_log $LOGS/nginx-error.log warn;
events { worker_connections 8192; }
http {
  log_format drill '\$msec \$server_port "\$request" \$status \$request_time up=\$upstream_addr ustatus=\$upstream_status utime=\$upstream_response_time';
  access_log $LOGS/nginx-access.log drill buffer=64k flush=1s;
  client_body_temp_path $NGX/tmp/body;
  proxy_temp_path $NGX/tmp/proxy;
  fastcgi_temp_path $NGX/tmp/fastcgi;
  uwsgi_temp_path $NGX/tmp/uwsgi;
  scgi_temp_path $NGX/tmp/scgi;
  # Keep-alive to the replicas, as ingress-nginx does.
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header Host \$host;
  proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
  proxy_set_header X-Forwarded-Proto \$scheme;
  proxy_connect_timeout 2s;
  # Passive health checks and retries like a Service: the next replica only when the connection
  # failed (error) or timed out; nginx never passes a POST/PATCH on once it was sent (no
  # non_idempotent): the services' Idempotency-Keys and versions handle the clients' retries.
  proxy_next_upstream error timeout;
  proxy_next_upstream_tries 2;
  proxy_buffering off;
  client_max_body_size 2m;
  map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
EOF
    for s in "${SVCS[@]}"; do
      echo "  upstream $s {"
      for r in a b; do
        name="$s-$r"
        down=""
        [ -f "$STATE/nginx-down-$name" ] && down=" down"
        echo "    server 127.0.0.1:$(replica_port "$name") max_fails=1 fail_timeout=5s$down;"
      done
      echo "    keepalive 16;"
      echo "  }"
    done
    cat <<EOF
  # The Ingress: only the public /api/v1 prefixes (pathType Prefix); never /internal, never /q.
  server {
    listen 127.0.0.1:$INGRESS_PORT;
    # The chart's ingress-nginx annotations (WebSocket sessions stay open for a whole exam).
    proxy_read_timeout 3600s;
    proxy_send_timeout 3600s;
    # nginx matches the normalised path but forwards the raw one: no dot segments or encoded
    # slashes/dots may smuggle /internal or /q past the prefixes.
    if (\$request_uri ~* "(%2e|%2f|%5c|/\\.\\.?(/|\\?|\$))") { return 400; }
    location ~ ^/api/v1/sessions/[^/]+/live\$ {
      proxy_pass http://session;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection \$connection_upgrade;
    }
EOF
    for s in "${SVCS[@]}"; do
      for r in $(chart_routes "$s"); do
        echo "    location = $r { proxy_pass http://$s; }"
        echo "    location $r/ { proxy_pass http://$s; }"
      done
    done
    cat <<EOF
    location / { return 404; }
  }
EOF
    for s in "${SVCS[@]}"; do
      cat <<EOF
  # The Service of $s: every path (the callers' own timeouts apply; this is a long stop).
  server {
    listen 127.0.0.1:$(service_port "$s");
    proxy_read_timeout 60s;
    location / { proxy_pass http://$s; }
  }
EOF
    done
    echo "}"
  } >"$NGX/nginx.conf.new"
  mv -f "$NGX/nginx.conf.new" "$NGX/nginx.conf"
}
# need_tool COMMAND PACKAGE, as ./exam's: apt-get installs it when missing, or the drill stops naming it.
need_tool() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    say "installing $2 (apt-get)"
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null || true
  fi
  command -v "$1" >/dev/null 2>&1 || die "$1 is missing (Debian package $2)"
}
nginx_up() {
  need_tool nginx nginx
  mkdir -p "$NGX/tmp"
  rm -f "$STATE"/nginx-down-*
  render_nginx
  nginx -p "$NGX" -c "$NGX/nginx.conf" -t >"$LOGS/nginx-test.log" 2>&1 || { cat "$LOGS/nginx-test.log" >&2; die "nginx.conf does not load"; }
  nginx -p "$NGX" -c "$NGX/nginx.conf" -g "user root;" >>"$LOGS/nginx-error.log" 2>&1 || die "nginx did not start"
  say "nginx: ingress on 127.0.0.1:$INGRESS_PORT, Services on $(service_port session)-$(service_port grading)"
}
# Takes a replica out of (or back into) the upstreams, as endpoints do for a terminating pod.
nginx_endpoint() { # name in|out
  (
    flock 9
    if [ "$2" = out ]; then touch "$STATE/nginx-down-$1"; else rm -f "$STATE/nginx-down-$1"; fi
    render_nginx
    nginx -p "$NGX" -c "$NGX/nginx.conf" -g "user root;" -s reload 2>>"$LOGS/nginx-error.log"
  ) 9>"$STATE/nginx.lock"
}
nginx_down() {
  local pid
  pid="$(cat "$NGX/nginx.pid" 2>/dev/null || true)"
  [[ "$(ps -ww -p "${pid:-0}" -o args= 2>/dev/null)" == *nginx*"$NGX"* ]] && kill -QUIT "$pid" 2>/dev/null || true
}

# --- the replicas ------------------------------------------------------------------------------
start_replica() {
  local name="$1" s="${1%-*}" module port extra=() command_var pid
  module="$(module_of "$s")"
  port="$(replica_port "$name")"
  case "$s" in
    session) extra+=("EXAM_CANDIDATE_PRIVATE_KEY=$(key candidate private)") ;;
    submission) extra+=("EXAM_PAPER_PRIVATE_KEY=$(key paper private)" "EXAM_PAPER_PUBLIC_KEY=$(key paper public)") ;;
    grading) extra+=("EXAM_PAPER_PUBLIC_KEY=$(key paper public)" "EXAM_ARCHIVE_PRIVATE_KEY=$(key archive private)"
      "EXAM_ARCHIVE_PUBLIC_KEY=$(key archive public)") ;;
  esac
  command_var="DRILL_COMMAND_${module//-/_}" # ./exam's service_command: the JVM or the native executable
  printf '=== %s start %s (port %s)\n' "$(date -u +%FT%T.%3NZ)" "$name" "$port" >>"$LOGS/$name.log"
  # shellcheck disable=SC2086 # a command and its flags
  env "${extra[@]}" EXAM_HTTP_PORT="$port" \
    setpriv --regid="$(replica_gid "$name")" --clear-groups -- \
    ${!command_var} -Dexam.drill.replica="$name" >>"$LOGS/$name.log" 2>&1 </dev/null &
  pid=$!
  disown "$pid" 2>/dev/null || true # its kill -9 is the point, not news for the terminal
  echo "$pid" >"$STATE/$name.pid"
}
# Until ready or the timeout: a replica that exits meanwhile is started again by the supervisor.
wait_replica_ready() { # name timeout-s
  local deadline=$((SECONDS + $2))
  until replica_ready "$1"; do
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 1
  done
}
# A fault that stops a replica on purpose says so, so that the supervisor leaves it alone.
stopping() { touch "$STATE/stopping-$1"; }
stopped_done() { rm -f "$STATE/stopping-$1"; }

# The kubelet's restartPolicy: Always. A replica that exits when no fault stopped it (a crash at
# start, an OutOfMemoryError, ...) is started again after 10 s (CrashLoopBackOff's first delay);
# each such restart is a finding, recorded as a "crashRestart" for the report.
supervisor() {
  local name pid since
  declare -A dead_since=()
  while :; do
    for name in "${REPLICAS[@]}"; do
      [ -f "$STATE/stopping-$name" ] && { dead_since[$name]=""; continue; }
      pid="$(replica_pid "$name")"
      if pid_alive "$pid"; then dead_since[$name]=""; continue; fi
      since="${dead_since[$name]:-}"
      if [ -z "$since" ]; then
        dead_since[$name]="$(now_ms)"
        flog "supervisor: $name (pid $pid) exited on its own; restart in 10 s"
      elif [ $(($(now_ms) - since)) -ge 10000 ]; then
        local cause
        cause="$(grep -h '"level":"ERROR"' "$LOGS/$name.log" 2>/dev/null | tail -n 1 | cut -c1-2000 |
          sed -E 's/.*"message":"([^"]*)".*"causedBy":\{"exception":\{"refId":[0-9]+,"exceptionType":"([^"]*)","message":"([^"]{0,200}).*/\1: \2: \3/' |
          sed -E 's/[\\]n.*//' | tr '\t' ' ' | cut -c1-400)"
        start_replica "$name"
        record_fault "$since" "$(now_ms)" crashRestart "$name" "exited on its own (pid $pid; last error: ${cause:-none logged}); started again after 10 s"
        dead_since[$name]=""
      fi
    done
    sleep 1
  done
}
# SIGTERM and wait until it exits (the pod's grace period), SIGKILL after that.
term_replica() { # name grace-s
  local pid waited=0
  pid="$(replica_pid "$1")"
  pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  while pid_alive "$pid" && [ "$waited" -lt "$(($2 * 10))" ]; do sleep 0.1; waited=$((waited + 1)); done
  if pid_alive "$pid"; then
    kill -KILL "$pid" 2>/dev/null || true
    echo "killed after ${2}s"
  fi
  wait "$pid" 2>/dev/null || true
}
env_for_services() {
  export EXAM_DB_HOST=127.0.0.1 EXAM_DB_PORT="$PG_PORT" EXAM_DB_NAME=exam EXAM_DB_USER=postgres EXAM_DB_PASSWORD=""
  export EXAM_REDIS_URL="$REDIS_URL"
  if [ "$REDIS_MODE" = cluster ]; then
    export QUARKUS_REDIS_CLIENT_TYPE=cluster EXAM_REDIS_WAIT_REPLICAS=1
  else
    unset QUARKUS_REDIS_CLIENT_TYPE EXAM_REDIS_WAIT_REPLICAS
  fi
  export EXAM_SESSION_URL="http://127.0.0.1:$(service_port session)"
  export EXAM_ANSWER_URL="http://127.0.0.1:$(service_port answer)"
  export EXAM_SUBMISSION_URL="http://127.0.0.1:$(service_port submission)"
  export EXAM_GRADING_URL="http://127.0.0.1:$(service_port grading)"
  export QUARKUS_SHUTDOWN_TIMEOUT=25s # the chart's shutdownTimeoutSeconds
  export QUARKUS_PROFILE="${QUARKUS_PROFILE:-prod}"
  export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
}

# --- cleanup: everything this run started, also on failure or Ctrl-C ---------------------------
SCHEDULER_PID="" # the fault schedule runs in a process group of its own: its lanes, sleeps and restarts
SUPERVISOR_PID=""
CLEANED=0
cleanup() {
  [ "$CLEANED" = 1 ] && return 0
  CLEANED=1
  set +e
  say "stopping everything the drill started (logs: $LOGS)"
  local pid name pids=()
  [ -n "$SCHEDULER_PID" ] && kill -TERM -- "-$SCHEDULER_PID" 2>/dev/null
  [ -n "$SUPERVISOR_PID" ] && kill -TERM -- "-$SUPERVISOR_PID" 2>/dev/null
  nft delete table inet "$NFT_TABLE" 2>/dev/null
  slow_link_down
  for name in "${REPLICAS[@]}"; do
    pid="$(replica_pid "$name")"
    if pid_alive "$pid"; then
      kill -CONT "$pid" 2>/dev/null # a paused replica cannot exit
      kill -TERM "$pid" 2>/dev/null
      pids+=("$pid")
    fi
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 300); do pid_alive "$pid" || break; sleep 0.1; done
    pid_alive "$pid" && kill -KILL "$pid" 2>/dev/null
  done
  nginx_down
  redis_down
  pg_down
  rm -f "$STATE"/*.pid
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------------
# The fault schedule. Three lanes, each with its own seeded random: kills every 10–20 s; the
# rolling restart; the rest one after another. At most one replica of a service is disturbed at
# a time (the lock STATE/down-<svc>), so that a fault tests failover, not a service with no
# replica at all (the chart's PodDisruptionBudget keeps one).
# ---------------------------------------------------------------------------------------------
claim() { mkdir "$STATE/down-$1" 2>/dev/null; }
release() { rmdir "$STATE/down-$1" 2>/dev/null || true; }
claim_wait() { until claim "$1"; do sleep 0.5; done; }
# pick_replica, trying again every 2 s for up to a minute (the kills and the rollout hold locks).
pick_replica_wait() {
  local deadline=$((SECONDS + 60))
  until pick_replica; do [ "$SECONDS" -ge "$deadline" ] && return 1; sleep 2; done
}
# A random replica whose service nobody else disturbs; sets PICK (claimed) or returns 1.
pick_replica() {
  local tries=0
  while [ "$tries" -lt 8 ]; do
    rand 0 7
    PICK="${REPLICAS[$R]}"
    tries=$((tries + 1))
    claim "${PICK%-*}" || continue
    local sibling="${PICK%-*}-$([ "${PICK##*-}" = a ] && echo b || echo a)"
    if replica_ready "$sibling"; then return 0; fi
    release "${PICK%-*}"
  done
  return 1
}
sleep_until_ms() { local left=$(($1 - $(now_ms))); [ "$left" -gt 0 ] && sleep "$(printf '%d.%03d' $((left / 1000)) $((left % 1000)))" || true; }

# Chosen in the lane (its seeded RANDOM: bash reseeds RANDOM in every subshell), waited for apart.
fault_kill() { # name down-s
  local name="$1" down="$2" t0 pid t1
  pid="$(replica_pid "$name")"
  t0="$(now_ms)"
  flog "kill -9 $name (pid $pid)"
  stopping "$name"
  kill -KILL "$pid" 2>/dev/null || true
  sleep "$down"
  start_replica "$name"
  stopped_done "$name"
  if wait_replica_ready "$name" 240; then
    t1="$(now_ms)"
    record_fault "$t0" "$t1" kill "$name" "kill -9 pid $pid; restarted after ${down}s; ready after $(((t1 - t0) / 1000))s"
  else
    record_fault "$t0" "$(now_ms)" kill "$name" "FAILED: not ready again after restart (log: .exam/drill/logs/$name.log)"
  fi
  release "${name%-*}"
}
lane_kill() { # start-ms end-ms
  RANDOM=$((SEED + 11))
  sleep_until_ms $(($1 + 10000))
  local down
  while [ "$(now_ms)" -lt "$2" ]; do
    # Every service busy (a restart on two loaded cores takes up to ~2 min): the next kill as soon
    # as one is free, the 10-20 s counted from it.
    until pick_replica; do
      [ "$(now_ms)" -lt "$2" ] || break 2
      sleep 2
    done
    rand 3 6
    down=$R
    fault_kill "$PICK" "$down" &
    rand 10 20
    sleep "$R"
  done
  wait
}

fault_rolling_restart() {
  local s r name t0 t1 notes=() extra
  t0="$(now_ms)"
  for s in "${SVCS[@]}"; do
    for r in a b; do
      name="$s-$r"
      claim_wait "$s"
      local r0
      r0="$(now_ms)"
      flog "rollingRestart: $name out of the endpoints, preStop 5 s, SIGTERM"
      nginx_endpoint "$name" out
      sleep 5 # the chart's preStopSleepSeconds: the ingress drops it before it stops
      stopping "$name"
      extra="$(term_replica "$name" 40)"
      start_replica "$name"
      stopped_done "$name"
      if wait_replica_ready "$name" 240; then
        nginx_endpoint "$name" in
        notes+=("$name $((($(now_ms) - r0) / 1000))s${extra:+ ($extra)}")
      else
        # As a Deployment with maxUnavailable 0: the rollout stops, the other replica stays.
        nginx_endpoint "$name" in
        release "$s"
        record_fault "$t0" "$(now_ms)" rollingRestart all "FAILED: $name not ready 240 s after its restart; rollout stopped. $(IFS=';'; echo "${notes[*]}")"
        return 0
      fi
      release "$s"
    done
  done
  t1="$(now_ms)"
  record_fault "$t0" "$t1" rollingRestart all "$(IFS=';'; echo "${notes[*]}")"
}

fault_redis_master_kill() {
  local t0 line port pid masters=() rport role waited=0 promoted=""
  t0="$(now_ms)"
  if [ "$REDIS_MODE" = standalone ]; then
    pid="$(cat "$DRILL_DIR/redis-standalone/redis.pid")"
    flog "redisMasterKill: kill -9 the standalone Redis (pid $pid), restart from its AOF"
    kill -KILL "$pid"
    sleep 2
    redis-server --port "$REDIS_STANDALONE_PORT" --bind 127.0.0.1 --appendonly yes --appendfsync everysec --save "" \
      --dir "$DRILL_DIR/redis-standalone" --daemonize yes --pidfile "$DRILL_DIR/redis-standalone/redis.pid" \
      --logfile "$LOGS/redis-standalone.log"
    until redis-cli -p "$REDIS_STANDALONE_PORT" ping >/dev/null 2>&1; do sleep 0.2; done
    record_fault "$t0" "$(now_ms)" redisMasterKill "$REDIS_STANDALONE_PORT" "standalone: kill -9, restarted from AOF after 2 s"
    return 0
  fi
  while read -r line; do
    set -- $line
    [ "$3" = master ] && masters+=("$1:$2")
  done < <(cluster_nodes)
  [ "${#masters[@]}" -gt 0 ] || { record_fault "$t0" "$(now_ms)" redisMasterKill none "FAILED: no master found"; return 0; }
  rand 0 $((${#masters[@]} - 1))
  port="${masters[$R]%%:*}"
  pid="${masters[$R]##*:}"
  rport="$(cluster_nodes | awk -v m="$port" '$3 == "replica" && $4 == m { print $1; exit }')"
  flog "redisMasterKill: kill -9 master $port (pid $pid); its replica $rport should take over"
  kill -KILL "$pid"
  while [ "$waited" -lt 300 ]; do
    role="$(redis-cli -p "$rport" role 2>/dev/null | head -n 1)"
    if [ "$role" = master ]; then promoted="$(now_ms)"; break; fi
    sleep 0.1
    waited=$((waited + 1))
  done
  sleep 5
  "$EXAM_HOME/exam" cluster up --ports "$REDIS_PORTS" --dir "$REDIS_DIR" >>"$LOGS/redis-cluster.log" 2>&1 ||
    flog "redisMasterKill: ./exam cluster up did not report a healthy cluster"
  local rejoined
  rejoined="$(cluster_nodes | awk -v p="$port" '$1 == p { print $3 " of " $4 }')"
  if [ -n "$promoted" ]; then
    record_fault "$t0" "$(now_ms)" redisMasterKill "$port" \
      "kill -9 master $port (pid $pid); replica $rport promoted after $(((promoted - t0)))ms; $port restarted, now $rejoined"
  else
    record_fault "$t0" "$(now_ms)" redisMasterKill "$port" "FAILED: replica $rport not promoted within 30 s; $port now $rejoined"
  fi
}

fault_redis_replica_kill() {
  local t0 line replicas=() port pid
  t0="$(now_ms)"
  if [ "$REDIS_MODE" = standalone ]; then
    flog "redisReplicaKill: no replica in standalone mode"
    record_fault "$t0" "$t0" redisReplicaKill none "skipped: standalone Redis has no replica"
    return 0
  fi
  while read -r line; do
    set -- $line
    [ "$3" = replica ] && replicas+=("$1:$2")
  done < <(cluster_nodes)
  [ "${#replicas[@]}" -gt 0 ] || { record_fault "$t0" "$(now_ms)" redisReplicaKill none "FAILED: no replica found"; return 0; }
  rand 0 $((${#replicas[@]} - 1))
  port="${replicas[$R]%%:*}"
  pid="${replicas[$R]##*:}"
  flog "redisReplicaKill: kill -9 replica $port (pid $pid)"
  kill -KILL "$pid"
  sleep 5
  "$EXAM_HOME/exam" cluster up --ports "$REDIS_PORTS" --dir "$REDIS_DIR" >>"$LOGS/redis-cluster.log" 2>&1 ||
    flog "redisReplicaKill: ./exam cluster up did not report a healthy cluster"
  record_fault "$t0" "$(now_ms)" redisReplicaKill "$port" "kill -9 replica $port (pid $pid); restarted after 5 s, now $(cluster_nodes | awk -v p="$port" '$1 == p { print $3 " of " $4 }')"
}

fault_postgres_restart() {
  local t0
  t0="$(now_ms)"
  flog "postgresRestart: pg_ctl restart -m immediate"
  if pg_ctl_drill -m immediate -w -t 60 restart >/dev/null 2>&1; then
    record_fault "$t0" "$(now_ms)" postgresRestart "$PG_PORT" "pg_ctl restart -m immediate (crash recovery at start); accepting again after $((($(now_ms) - t0)))ms"
  else
    record_fault "$t0" "$(now_ms)" postgresRestart "$PG_PORT" "FAILED: pg_ctl restart did not finish (log: .exam/drill/logs/postgresql.log)"
  fi
}

fault_pause() {
  local name pid t0
  pick_replica_wait || { record_fault "$(now_ms)" "$(now_ms)" pause none "FAILED: no replica free for a minute"; return 0; }
  name="$PICK"
  pid="$(replica_pid "$name")"
  t0="$(now_ms)"
  flog "pause: SIGSTOP $name (pid $pid) for 8 s"
  kill -STOP "$pid"
  sleep 8
  kill -CONT "$pid"
  record_fault "$t0" "$(now_ms)" pause "$name" "SIGSTOP for 8 s (callers' read timeouts are 5-10 s), then SIGCONT"
  release "${name%-*}"
}

# The partition: nftables rules on loopback matching the replica's sockets by its group id
# (meta skgid), marking their connections (ct mark) so that both directions match. No netem in
# this kernel (CONFIG_NET_SCH_NETEM unset), and no tc classifiers: the slow link is an HTB class on
# lo that nftables steers the marked packets into (meta priority = the class id), so they queue
# behind a narrow rate; with 30 % of them dropped besides, TCP retransmits on top.
SLOW_RATE="256kbit" # the slow link's rate (both directions of the replica's connections)
SLOW_CLASS="1:20"   # its HTB class; everything else on lo goes through 1:10, unlimited
slow_link_up() {
  tc qdisc replace dev lo root handle 1: htb default 10 r2q 1000 &&
    tc class add dev lo parent 1: classid 1:10 htb rate 100gbit quantum 60000 &&
    tc class add dev lo parent 1: classid "$SLOW_CLASS" htb rate "$SLOW_RATE" ceil "$SLOW_RATE" quantum 1600
}
slow_link_down() {
  tc qdisc del dev lo root 2>/dev/null || true
}

fault_partition() {
  local name gid t0 ports="{ $PG_PORT, ${REDIS_PORTS/-/-} }"
  [ "$REDIS_MODE" = standalone ] && ports="{ $PG_PORT, $REDIS_STANDALONE_PORT }"
  pick_replica_wait || { record_fault "$(now_ms)" "$(now_ms)" partition none "FAILED: no replica free for a minute"; return 0; }
  name="$PICK"
  gid="$(replica_gid "$name")"
  t0="$(now_ms)"
  flog "partition: $name (gid $gid) cut off from PostgreSQL and Redis for 10 s"
  nft -f - <<EOF
table inet $NFT_TABLE {
  chain out {
    type filter hook output priority 0; policy accept;
    meta skgid $gid tcp dport $ports ct mark set 0x4d52
    ct mark 0x4d52 drop
  }
}
EOF
  sleep 10
  flog "partition: $name on a slow, lossy link ($SLOW_RATE, 30 % of packets dropped both ways) for 15 s"
  local slow="at $SLOW_RATE"
  slow_link_up || { slow="FAILED: lo could not be shaped (tc htb), not slowed"; slow_link_down; }
  nft flush chain inet "$NFT_TABLE" out
  nft add rule inet "$NFT_TABLE" out meta skgid "$gid" tcp dport "$ports" ct mark set 0x4d52
  nft add rule inet "$NFT_TABLE" out ct mark 0x4d52 numgen random mod 100 '<' 30 drop
  nft add rule inet "$NFT_TABLE" out ct mark 0x4d52 meta priority set "$SLOW_CLASS"
  sleep 15
  nft delete table inet "$NFT_TABLE"
  slow_link_down
  record_fault "$t0" "$(now_ms)" partition "$name" "cut off from PostgreSQL and Redis 10 s, then 15 s $slow with 30 % packet loss (nftables + an HTB class on lo, skgid $gid; no fixed delay: no netem)"
  release "${name%-*}"
}

# Each at its own time (20, 35, 50, 60 and 70 % of the exam, ±3 s), with a random of its own: one
# that waits for a free replica does not push the others past the exam's end. The two Redis faults
# never overlap (a replica kill during the failover would leave a slot range without a master).
lane_others() { # start-ms duration-ms
  RANDOM=$((SEED + 23))
  local kind frac at i=0
  for kind in redisMasterKill pause postgresRestart redisReplicaKill partition; do
    i=$((i + 1))
    want_fault "$kind" || continue
    case "$kind" in
      redisMasterKill) frac=20 ;; pause) frac=35 ;; postgresRestart) frac=50 ;; redisReplicaKill) frac=60 ;; partition) frac=70 ;;
    esac
    rand -3000 3000
    at=$(($1 + $2 * frac / 100 + R))
    (
      RANDOM=$((SEED + 100 + i))
      sleep_until_ms "$at"
      case "$kind" in
        redisMasterKill) redis_lock fault_redis_master_kill ;;
        pause) fault_pause ;;
        postgresRestart) fault_postgres_restart ;;
        redisReplicaKill) redis_lock fault_redis_replica_kill ;;
        partition) fault_partition ;;
      esac
    ) &
  done
  wait
}
redis_lock() {
  until mkdir "$STATE/redis-fault" 2>/dev/null; do sleep 0.5; done
  "$@"
  rmdir "$STATE/redis-fault"
}
lane_rolling() { # start-ms duration-ms
  sleep_until_ms $(($1 + $2 * 15 / 100))
  fault_rolling_restart
}

# Waits for the demo's "exam started" file, then runs the lanes; writes faults.done at the end.
scheduler() {
  local started end_ms duration_ms=$((DURATION * 1000))
  until [ -f "$DRILL_DIR/exam-started" ]; do sleep 0.5; done
  # The faults' clock starts when the last candidates have started (the ramp).
  started=$(($(cat "$DRILL_DIR/exam-started") + RAMP * 1000))
  end_ms=$((started + duration_ms - 5000))
  flog "exam started; faults from $started (after the ${RAMP}s ramp): $FAULTS (seed $SEED)"
  local pids=()
  if want_fault kill; then lane_kill "$started" "$end_ms" & pids+=($!); fi
  if want_fault rollingRestart; then lane_rolling "$started" "$duration_ms" & pids+=($!); fi
  lane_others "$started" "$duration_ms" & pids+=($!)
  wait "${pids[@]}"
  flog "schedule done"
  touch "$FAULTS_TSV.done"
}

# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------
smoke_check() {
  local base="http://127.0.0.1:$INGRESS_PORT" code bad=0 path
  for path in /q/health/ready /internal/exams/x /api/v1/exams/%2e%2e/%2e%2e/q/health /api/v1/sessions/../../q/health /api/v1/examsX; do
    code="$(http_code "$base$path")"
    case "$code" in 400 | 404) ;; *) say "ingress routes $path (HTTP $code): it must not"; bad=1 ;; esac
  done
  code="$(http_code "http://127.0.0.1:$(service_port session)/q/health/ready")"
  [ "$code" = 200 ] || { say "the session Service does not reach /q/health/ready (HTTP $code)"; bad=1; }
  return "$bad"
}

main() {
  [ -n "${DRILL_DEMO_CP:-}" ] || die "run through ./exam drill"
  for port in $INGRESS_PORT 28081 28082 28083 28084 28091 28092 28093 28094 28181 28182 28183 28184 $PG_PORT; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is taken (a drill still running? ./exam drill stops what it started)"; fi
  done
  rm -rf "$STATE" "$LOGS.1"
  [ -d "$LOGS" ] && mv "$LOGS" "$LOGS.1" # the previous run's logs stay for one more run
  mkdir -p "$STATE" "$LOGS"
  rm -f "$FAULTS_TSV" "$FAULTS_TSV.done" "$DRILL_DIR/exam-started"
  say "seed $SEED; $CANDIDATES candidates starting over ${RAMP}s, ${DURATION}s exam, $NETWORK network; faults: $FAULTS; Redis $REDIS_MODE"
  need_tool curl curl
  if want_fault partition; then
    [ "$(id -u)" = 0 ] || die "the partition needs root (nftables); --faults without partition runs without"
    need_tool nft nftables
    need_tool tc iproute2
  fi
  pg_up
  redis_up
  env_for_services
  nginx_up
  local name began=$SECONDS
  for name in "${REPLICAS[@]}"; do start_replica "$name"; done
  set -m # the supervisor and the schedule each get a process group of their own, stopped as one
  supervisor >>"$LOGS/faults.log" 2>&1 &
  SUPERVISOR_PID=$!
  set +m
  say "started 8 replicas; waiting until every /q/health/ready says 200"
  for name in "${REPLICAS[@]}"; do
    wait_replica_ready "$name" 400 || { tail -n 30 "$LOGS/$name.log" >&2; die "$name is not ready (log: $LOGS/$name.log)"; }
  done
  say "all replicas ready after $((SECONDS - began))s"
  smoke_check || die "the ingress routes what it must not"

  set -m
  scheduler >>"$LOGS/faults.log" 2>&1 &
  SCHEDULER_PID=$!
  set +m

  local rc=0 json_args=()
  [ -n "$JSON_OUT" ] && json_args=(--json "$JSON_OUT")
  mkdir -p "$EXAM_HOME/docs/reports"
  EXAM_SESSION_URL="http://127.0.0.1:$INGRESS_PORT" EXAM_ANSWER_URL="http://127.0.0.1:$INGRESS_PORT" \
    EXAM_SUBMISSION_URL="http://127.0.0.1:$INGRESS_PORT" EXAM_GRADING_URL="http://127.0.0.1:$INGRESS_PORT" \
    java -Xmx1g -cp "$DRILL_DEMO_CP" org.examsuite.demo.Demo --operator-token "$DRILL_OPERATOR_TOKEN" \
    --report-dir "$EXAM_HOME/docs/reports" --candidates "$CANDIDATES" --duration "$DURATION" --network "$NETWORK" \
    --seed "$SEED" --proxy-port-base 0 --wait "$WAIT_S" --ramp "$RAMP" --drill-dir "$DRILL_DIR" \
    --drill-setup "redis $REDIS_MODE, faults $FAULTS" "${json_args[@]}" || rc=$?
  check_schedule || { [ "$rc" = 0 ] && rc=1; }
  return "$rc"
}

# Every requested kind ran, and nothing FAILED (an injection that did not work, a replica that did
# not come back): otherwise the drill did not test what it says.
check_schedule() {
  local ok=0 kind
  if [ ! -f "$FAULTS_TSV.done" ]; then say "the fault schedule had not finished when the demo ended"; ok=1; fi
  for kind in ${FAULTS//,/ }; do
    if ! awk -F'\t' -v k="$kind" '$3 == k { found = 1 } END { exit !found }' "$FAULTS_TSV" 2>/dev/null; then
      say "no '$kind' fault ran (see $LOGS/faults.log)"
      ok=1
    fi
  done
  if grep -q $'\tFAILED' "$FAULTS_TSV" 2>/dev/null; then
    say "faults that FAILED:"
    awk -F'\t' '$5 ~ /^FAILED/ { print "  " $3 " " $4 ": " $5 }' "$FAULTS_TSV"
    ok=1
  fi
  return "$ok"
}

main
