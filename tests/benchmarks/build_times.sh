#!/usr/bin/env bash
# Measures the two build times the course promises on a 2-core machine, in a build directory of
# its own (build-times/, removed afterwards), and prints them with the machine's load:
#   1. a clean configure + build + full test run (what `cmake --workflow --preset test` does);
#   2. the edit-one-lesson loop: touch lesson 2, rebuild, re-run its tests (median of N runs).
# Usage: tests/benchmarks/build_times.sh [N=7]
# Other work on the machine slows both: compare the load printed before and after.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-7}
dir=build-times
lesson=lessons/02_device_checks.cpp

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

echo "load average before: $(load)"
rm -rf "$dir"
TIMEFORMAT='%R %U %S'
clean_times=$( { time {
  cmake --preset course -B "$dir" >/dev/null
  cmake --build "$dir" >/dev/null
  ctest --test-dir "$dir" -j 2 --output-on-failure >/dev/null
} ; } 2>&1 )
read -r clean user system <<<"$clean_times"

loop=()
for ((i = 0; i < runs; ++i)); do
  touch "$lesson"
  start=$(now)
  cmake --build "$dir" >/dev/null
  ctest --test-dir "$dir" -j 2 -R 'lesson\.02' --output-on-failure >/dev/null
  loop+=("$(seconds "$start" "$(now)")")
done
median=$(printf '%s\n' "${loop[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "load average after:  $(load)"
rm -rf "$dir"

echo "clean configure + build + test:  ${clean} s (CPU: ${user} s user, ${system} s system)"
echo "edit lesson 2, rebuild, re-test: ${median} s median of ${runs} (${loop[*]})"
