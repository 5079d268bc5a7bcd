#!/bin/sh
# fixtures-test.sh - Apache-2.0, part of this project's native-image toolchain.
#
# Runs the container probe (built with -DSVM_CONTAINER_TESTING) against fake
# /proc and /sys/fs/cgroup trees, to cover layouts this machine cannot
# produce: cgroup v2 in a Kubernetes-style namespace, v2 with limits on a
# parent cgroup, v1 Docker-style bind mounts with a cpuset, and a host
# without limits. Host CPU count and memory come from the real machine, so
# expectations stay below them (1 CPU; limits well under any host's memory).
#
# usage: fixtures-test.sh build/container-probe
set -u
PROBE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAIL=0

put() { mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1"; }

run() { # name key=value...
    name=$1; shift
    out=$(SVM_CONTAINER_FAKE_ROOT="$TMP/$name" "$PROBE")
    for kv in "$@"; do
        key=${kv%%=*}
        if echo "$out" | grep -qx "$kv"; then
            echo "ok   $name: $kv"
        else
            echo "FAIL $name: expected $kv, got $(echo "$out" | grep "^$key=")"
            FAIL=1
        fi
    done
}

# 1. cgroup v2, private cgroup namespace, read-only mount (Kubernetes / Docker default).
R=$TMP/v2ns
put $R/proc/self/cgroup "0::/"
put $R/proc/self/mountinfo "30 25 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw"
C=$R/sys/fs/cgroup
put $C/cgroup.controllers "cpuset cpu io memory pids"
put $C/memory.max 536870912
put $C/memory.swap.max 0
put $C/memory.low 0
put $C/memory.current 12345678
put $C/memory.peak 23456789
printf 'anon 1000000\nfile 2000000\n' > $C/memory.stat
put $C/cpu.max "50000 100000"
put $C/cpu.weight 100
put $C/cpuset.cpus.effective "0-1"
run v2ns "initialize=1 (containerized)" active_processor_count=1 memory_limit_in_bytes=536870912 \
    physical_memory=536870912 memory_and_swap_limit_in_bytes=536870912 memory_soft_limit_in_bytes=0 \
    memory_usage_in_bytes=12345678 memory_max_usage_in_bytes=23456789 rss_usage_in_bytes=1000000 \
    cache_usage_in_bytes=2000000

# 2. cgroup v2 without namespace, limits set on the pod (parent) cgroup only, rw mount.
R=$TMP/v2nested
put $R/proc/self/cgroup "0::/kubepods.slice/pod1/ctr1"
put $R/proc/self/mountinfo "30 25 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw"
C=$R/sys/fs/cgroup
put $C/cgroup.controllers "cpu memory pids"
put $C/kubepods.slice/pod1/memory.max 1073741824
put $C/kubepods.slice/pod1/cpu.max "100000 100000"
put $C/kubepods.slice/pod1/ctr1/memory.max max
put $C/kubepods.slice/pod1/ctr1/memory.swap.max max
put $C/kubepods.slice/pod1/ctr1/cpu.max "max 100000"
put $C/kubepods.slice/pod1/ctr1/memory.current 4096
run v2nested "initialize=1 (containerized)" active_processor_count=1 memory_limit_in_bytes=1073741824 \
    memory_and_swap_limit_in_bytes=-1 memory_usage_in_bytes=4096 memory_max_usage_in_bytes=-2

# 3. cgroup v1, Docker-style: each hierarchy's container subtree bind-mounted read-only.
R=$TMP/v1docker
mkdir -p $R/proc/self
printf '12:memory:/docker/abc\n5:cpu,cpuacct:/docker/abc\n3:cpuset:/docker/abc\n' > $R/proc/self/cgroup
cat > $R/proc/self/mountinfo <<EOF
40 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime master:15 - cgroup cgroup rw,memory
41 31 0:29 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid,nodev,noexec,relatime master:12 - cgroup cgroup rw,cpu,cpuacct
42 31 0:31 /docker/abc /sys/fs/cgroup/cpuset ro,nosuid,nodev,noexec,relatime master:14 - cgroup cgroup rw,cpuset
EOF
C=$R/sys/fs/cgroup
put $C/memory/memory.limit_in_bytes 314572800
put $C/memory/memory.memsw.limit_in_bytes 629145600
put $C/memory/memory.swappiness 60
put $C/memory/memory.soft_limit_in_bytes 9223372036854771712
put $C/memory/memory.usage_in_bytes 1048576
put $C/memory/memory.max_usage_in_bytes 2097152
printf 'cache 300\nrss 200\nhierarchical_memory_limit 314572800\n' > $C/memory/memory.stat
put $C/cpu,cpuacct/cpu.cfs_quota_us 200000
put $C/cpu,cpuacct/cpu.cfs_period_us 100000
put $C/cpu,cpuacct/cpu.shares 1024
put $C/cpuset/cpuset.cpus 1
run v1docker "initialize=1 (containerized)" active_processor_count=1 memory_limit_in_bytes=314572800 \
    memory_and_swap_limit_in_bytes=629145600 memory_soft_limit_in_bytes=-1 memory_usage_in_bytes=1048576 \
    memory_max_usage_in_bytes=2097152 rss_usage_in_bytes=200 cache_usage_in_bytes=300

# 4. Hybrid host (v1 controllers + empty unified hierarchy), no limits: not containerized.
R=$TMP/hybridhost
mkdir -p $R/proc/self
printf '4:memory:/user.slice\n1:cpu:/\n3:cpuset:/\n0::/user.slice\n' > $R/proc/self/cgroup
cat > $R/proc/self/mountinfo <<EOF
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
EOF
C=$R/sys/fs/cgroup
put $C/unified/cgroup.controllers ""
put $C/memory/memory.limit_in_bytes 9223372036854771712
put $C/memory/user.slice/memory.limit_in_bytes 9223372036854771712
put $C/cpu/cpu.cfs_quota_us -1
put $C/cpu/cpu.cfs_period_us 100000
run hybridhost "initialize=0 (not containerized)" memory_limit_in_bytes=-1

exit $FAIL
