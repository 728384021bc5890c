#!/usr/bin/env bash
# Benchmarks of the labs, printed as numbers (targets are in the design's performance budgets):
#
#   save to verdict   `course watch` runs; the lab file is saved RUNS times (one comment line
#                     added or removed each time) and each save is timed until watch prints its
#                     verdict. Prints the median. Budget: 0.3 s.
#   clean build       with --clean: configure, build and run every test in a new build tree,
#                     as the README's `cmake --workflow --preset test` does in build/.
#
# Usage: tests/labs/benchmark.sh [--lab NN] [--runs N] [--clean]
# Run it from the course's folder after building (cmake --build build). The lab file is put back
# exactly as it was, and the runs record nothing in your progress.
set -euo pipefail
cd "$(dirname "$0")/../.."

lab=02
runs=9
clean=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --lab) lab="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --clean) clean=true; shift ;;
    *) echo "usage: $0 [--lab NN] [--runs N] [--clean]" >&2; exit 2 ;;
  esac
done

now() { date +%s.%N; }
seconds_since() { echo "$(now) - $1" | bc; }

# The lab's file: lab.cpp, or in a lab of Metal kernels (lab 9) its first kernel.
file=$( (ls -d labs/"${lab}"_*/lab.cpp labs/"${lab}"_*/[0-9]*.metal 2>/dev/null || true) | head -1)
if [[ -z "$file" || ! -x build/course ]]; then
  echo "no lab $lab, or build/course is not built (cmake --build build)" >&2
  exit 2
fi

scratch=$(mktemp -d)
cp -p "$file" "$scratch/saved"
watch_pid=""
finish() {
  [[ -n "$watch_pid" ]] && kill "$watch_pid" 2>/dev/null && wait "$watch_pid" 2>/dev/null || true
  cp -p "$scratch/saved" "$file"
  rm -rf "$scratch"
}
trap finish EXIT

cmake --build build --target course "lab$lab" > /dev/null
export MPS_COURSE_PROGRESS="$scratch/progress.json" NO_COLOR=1
build/course watch > "$scratch/watch.log" 2>&1 &
watch_pid=$!
until grep -q "^Watching" "$scratch/watch.log"; do sleep 0.05; done  # the first verification is done

verdicts() { grep -c "^(verified $file in" "$scratch/watch.log" || true; }
times=()
for ((run = 1; run <= runs; run++)); do
  before=$(verdicts)
  start=$(now)
  if ((run % 2)); then echo "// benchmark save $run" >> "$file"; else cp -p "$scratch/saved" "$file"; touch "$file"; fi
  until (($(verdicts) > before)); do sleep 0.005; done
  times+=("$(seconds_since "$start")")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
echo "save to verdict, lab $lab, $runs saves: median $(printf '%.3f' "$median") s (budget: 0.3 s)"
echo "  each: $(printf '%.3f ' "${times[@]}")"

if $clean; then
  tree="$scratch/build"
  start=$(now)
  cmake -S . -B "$tree" -G Ninja > /dev/null
  configured=$(seconds_since "$start")
  cmake --build "$tree" > /dev/null
  built=$(seconds_since "$start")
  ctest --test-dir "$tree" -j 2 > "$scratch/ctest.log" || { tail -20 "$scratch/ctest.log"; exit 1; }
  tested=$(seconds_since "$start")
  printf 'clean configure %.1f s, + build %.1f s, + test %.1f s: %.1f s in all\n' \
    "$configured" "$(echo "$built - $configured" | bc)" "$(echo "$tested - $built" | bc)" "$tested"
fi
