#!/usr/bin/env bash
# The native-image toolchain's own test: builds NativeCheck.java into a native executable with the
# home toolchain.sh assembles (cached), runs its checks, then checks Runtime.availableProcessors()
# and maxMemory() outside any cgroup limit and inside one of 1 CPU and 256 MiB (c/test/container-test.sh;
# SKIP where cgroups cannot be created). SubstrateVM's default max heap (Serial GC, no -Xmx):
# AbstractCollectionPolicy.computeSizeParameters takes PhysicalMemory.size() / 100 * 80
# (MaximumHeapSizePercent) rounded down to the 512 KiB aligned chunk, where PhysicalMemory is the
# container's limit when there is one and the machine's RAM otherwise.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home="${EXAM_NATIVE_HOME:-$("$here/../toolchain.sh" | tail -n 1)}" || exit 1
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { echo "PASS $*"; passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
done_() { echo "native-toolchain: $passed passed, $failed failed"; exit $((failed > 0)); }
max_heap() { echo $(( $1 / 100 * 80 / 524288 * 524288 )); } # bytes of memory -> default maxMemory
limits() { # label output expected-cpus memory-bytes
  local cpus mem; cpus="$(sed -n 's/^cpus=\([0-9]*\) .*/\1/p' <<<"$2")"; mem="$(sed -n 's/.* maxMemory=\([0-9]*\)$/\1/p' <<<"$2")"
  [ "$cpus" = "$3" ] && ok "$1 cpus=$cpus" || bad "$1 cpus=$cpus, expected $3"
  [ -n "$mem" ] && [ "$mem" = "$(max_heap "$4")" ] && [ "$mem" -le "$4" ] &&
    ok "$1 maxMemory=$mem (80% of $4, 512 KiB aligned)" || bad "$1 maxMemory=$mem, expected $(max_heap "$4") (80% of $4)"
}

# The launcher's translation of the documented command line (--dry-run prints the builder's call).
printf -- '-O1\n--gc=serial\n' >"$work/opts"
dry="$(cd "$work" && "$home/bin/native-image" --dry-run -cp . @opts --no-fallback -J-Dx.y=z \
  --initialize-at-build-time=a.B --initialize-at-run-time --exclude-config '\.jar$' x Main main-out 2>&1)"
for want in -H:Optimize=1 -H:+UseSerialGC -H:FallbackThreshold=0 -Dx.y=z -H:ClassInitialization=a.B:build_time \
  -H:ClassInitialization=:run_time "-H:Class@driver=Main" "-H:Name@driver=main-out"; do
  grep -qxF -- "  $want \\" <<<"$dry" || grep -qxF -- "  $want" <<<"$dry" && ok "launcher: $want" || bad "launcher: no $want in --dry-run"
done
"$home/bin/native-image" --no-such-option Main >/dev/null 2>&1; [ $? -eq 2 ] && ok "launcher: unknown option exits 2" ||
  bad "launcher: unknown option did not exit 2"

start=$SECONDS
if "$home/bin/javac" -d "$work/classes" "$here/NativeCheck.java" >"$work/build.log" 2>&1 &&
   (cd "$work" && "$home/bin/native-image" -cp classes -o native-check NativeCheck) >>"$work/build.log" 2>&1; then
  ok "build native-check in $((SECONDS - start)) s ($(du -h "$work/native-check" | cut -f1))"
else
  bad "build; its log ends:"; tail -n 60 "$work/build.log"; done_
fi

out="$(timeout 120 "$work/native-check" 2>&1)"; rc=$?
echo "$out" | sed 's/^/  /'
for c in files gzip zip socket channel localhost timezone process charset threads runtime; do
  grep -q "^OK $c\b" <<<"$out" && ok "$c" || bad "$c"
done
[ $rc -eq 0 ] && ! grep -q '^FAIL' <<<"$out" && ok "exit status 0" || bad "exit status $rc"

# Outside any limit: the machine's CPUs and RAM (or the cgroup limit this script already runs under).
ram=$(( $(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo) * 1024 ))
for f in /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes; do
  l="$(cat "$f" 2>/dev/null)"; [[ "$l" =~ ^[0-9]+$ ]] && [ "$l" -lt "$ram" ] && ram=$l
done
out="$("$work/native-check" --limits)"; echo "  outside: $out"
limits "outside:" "$out" "$(nproc)" "$ram"

out="$("$here/../c/test/container-test.sh" --cpus 1 --memory 268435456 "$work/native-check" --limits)"; rc=$?
echo "$out" | sed 's/^/  /'
if [ $rc -eq 77 ]; then echo "SKIP 1 CPU / 256 MiB cgroup: cannot create cgroups here"
elif [ $rc -ne 0 ]; then bad "cgroup run exited with $rc"
else limits "cgroup 1 CPU/256 MiB:" "$(grep '^cpus=' <<<"$out")" 1 268435456; fi
done_
