#!/bin/sh
# container-test.sh - Apache-2.0, part of this project's native-image toolchain.
#
# Runs a program inside a fresh cgroup limited to 1 CPU (CFS quota 100000 /
# period 100000) and 256 MiB of memory, then removes the cgroup again. Works on
# cgroup v1 and hybrid hosts (memory + cpu v1 hierarchies) and on cgroup v2.
# Needs permission to create cgroups (normally root); otherwise it prints
# "SKIP: ..." and exits 77.
#
# usage: container-test.sh [--cpus N] [--memory BYTES]
#                          [--expect-cpus N] [--expect-memory BYTES] program [args...]
#
# With --expect-*, the program's output must contain the lines
# "active_processor_count=N" / "memory_limit_in_bytes=BYTES" (as printed by
# test/container_probe.c); otherwise the program's exit status is returned.
set -u

CPUS=1
MEMORY=268435456
EXPECT_CPUS=
EXPECT_MEMORY=
while [ $# -gt 0 ]; do
    case "$1" in
        --cpus) CPUS=$2; shift 2 ;;
        --memory) MEMORY=$2; shift 2 ;;
        --expect-cpus) EXPECT_CPUS=$2; shift 2 ;;
        --expect-memory) EXPECT_MEMORY=$2; shift 2 ;;
        --) shift; break ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: $0 [options] program [args...]" >&2; exit 2; }

NAME="svmtest-$$"
PERIOD=100000
QUOTA=$((CPUS * PERIOD))
CG=/sys/fs/cgroup
DIRS=""

skip() { echo "SKIP: $*"; cleanup; exit 77; }

cleanup() {
    for d in $DIRS; do
        rmdir "$d" 2>/dev/null || { sleep 1; rmdir "$d" 2>/dev/null; } ||
            echo "warning: could not remove cgroup $d" >&2
    done
    DIRS=""
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

if [ -d "$CG/memory" ] && [ -d "$CG/cpu" ] && [ -f "$CG/memory/memory.limit_in_bytes" ]; then
    MODE=v1
    mkdir "$CG/memory/$NAME" 2>/dev/null || skip "cannot create $CG/memory/$NAME (need root / writable cgroupfs)"
    DIRS="$CG/memory/$NAME"
    mkdir "$CG/cpu/$NAME" 2>/dev/null || skip "cannot create $CG/cpu/$NAME"
    DIRS="$DIRS $CG/cpu/$NAME"
    echo "$MEMORY" > "$CG/memory/$NAME/memory.limit_in_bytes" || skip "cannot set memory.limit_in_bytes"
    echo "$PERIOD" > "$CG/cpu/$NAME/cpu.cfs_period_us" || skip "cannot set cpu.cfs_period_us"
    echo "$QUOTA" > "$CG/cpu/$NAME/cpu.cfs_quota_us" || skip "cannot set cpu.cfs_quota_us"
    PROCS="$CG/memory/$NAME/cgroup.procs $CG/cpu/$NAME/cgroup.procs"
elif [ -f "$CG/cgroup.controllers" ]; then
    MODE=v2
    grep -qw memory "$CG/cgroup.subtree_control" 2>/dev/null || echo "+memory" > "$CG/cgroup.subtree_control" 2>/dev/null
    grep -qw cpu "$CG/cgroup.subtree_control" 2>/dev/null || echo "+cpu" > "$CG/cgroup.subtree_control" 2>/dev/null
    mkdir "$CG/$NAME" 2>/dev/null || skip "cannot create $CG/$NAME (need root / writable cgroupfs)"
    DIRS="$CG/$NAME"
    echo "$MEMORY" > "$CG/$NAME/memory.max" 2>/dev/null || skip "memory controller not enabled in $CG"
    echo "$QUOTA $PERIOD" > "$CG/$NAME/cpu.max" 2>/dev/null || skip "cpu controller not enabled in $CG"
    PROCS="$CG/$NAME/cgroup.procs"
else
    skip "no cgroup v1 memory/cpu hierarchy and no cgroup v2 at $CG"
fi

echo "== running in $MODE cgroup $NAME: cpus=$CPUS (quota $QUOTA/period $PERIOD), memory=$MEMORY: $*"
OUT=$(sh -c 'for f in $0; do echo $$ > "$f" || exit 97; done; exec "$@"' "$PROCS" "$@" 2>&1)
STATUS=$?
echo "$OUT"
[ $STATUS -eq 97 ] && skip "cannot move a process into the cgroup"

FAIL=0
check() { # key expected
    actual=$(echo "$OUT" | sed -n "s/^$1=//p" | head -n 1)
    if [ "$actual" = "$2" ]; then
        echo "ok: $1=$actual"
    else
        echo "FAIL: $1=$actual, expected $2"
        FAIL=1
    fi
}
[ -n "$EXPECT_CPUS" ] && check active_processor_count "$EXPECT_CPUS"
[ -n "$EXPECT_MEMORY" ] && check memory_limit_in_bytes "$EXPECT_MEMORY"
cleanup
if [ -n "$EXPECT_CPUS$EXPECT_MEMORY" ]; then
    [ $STATUS -eq 0 ] || { echo "FAIL: program exited with $STATUS"; exit 1; }
    exit $FAIL
fi
exit $STATUS
