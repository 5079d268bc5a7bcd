# Helpers shared by the bench/*/run.sh scripts that drive a service with wrk and read /proc.
# Sourced, not run: `. "$HERE/../lib.sh"`.

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
