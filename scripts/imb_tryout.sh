#!/usr/bin/env bash
# Builds the Intel MPI Benchmarks' IMB-MPI1 and IMB-NBC unchanged with the build-tree hmpicc /
# hmpicxx and runs every benchmark they list (the default set, then the non-default ones) on 2,
# 3 and 4 ranks and on 4 ranks over 2 emulated nodes. Prints one row per run: exit status,
# benchmarks that ran, whether every rank reached MPI_Finalize, and (with --check, IMB's own
# -DCHECK build, which compares every received buffer) the table rows with defects.
# The IMB sources are fetched separately; they are copied, never changed or kept in this repo.
# Usage: scripts/imb_tryout.sh [--check] [--build DIR] IMB_SOURCE_DIR [IMB args...]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
build=build/dev
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
  --check) check=1 ;;
  --build) build=$2; shift ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[[ $# -ge 1 ]] || { echo "usage: $0 [--check] [--build DIR] IMB_SOURCE_DIR [IMB args...]" >&2; exit 2; }
source_dir=$1
shift
imb_args=("$@")
[[ ${#imb_args[@]} -gt 0 ]] || imb_args=(-msglog 0:16 -iter 20)

bin=$(realpath "$build/bin")
work=$(mktemp -d /tmp/imb-tryout.XXXXXX)
cp -r "$source_dir/." "$work"
cppflags=()
[[ $check == 1 ]] && cppflags=(CPPFLAGS=-DCHECK)
for suite in MPI1 NBC; do
  make -C "$work" CC="$bin/hmpicc" CXX="$bin/hmpicxx" "${cppflags[@]}" "IMB-$suite" \
    >"$work/build-$suite.log" 2>&1 || { echo "IMB-$suite: build failed, see $work/build-$suite.log"; exit 1; }
done

# The benchmarks each suite lists as "(non-default)" in its -list output.
non_default() { "$work/IMB-$1" -list 2>/dev/null | sed -n 's/^ *\([A-Za-z_]*\) (non-default)$/\1/p'; }

failures=0
printf '%-5s %-11s %-15s %-4s %-11s %-9s %s\n' suite set job exit benchmarks finalized defect_rows
for job in "-n 2" "-n 3" "-n 4" "-n 4 --vnodes 2"; do
  for suite in MPI1 NBC; do
    for set in default non-default; do
      names=()
      [[ $set == non-default ]] && mapfile -t names < <(non_default "$suite")
      log="$work/$suite-$set-${job//[ -]/}.log"
      status=0
      # shellcheck disable=SC2086 # $job is a list of hlaunch options
      "$bin/hlaunch" --oversubscribe $job --timeout 600 "$work/IMB-$suite" "${imb_args[@]}" "${names[@]}" \
        >"$log" 2>&1 || status=$?
      ran=$(grep -c '^# Benchmarking' "$log" || true)
      finalized=$(grep -c 'All processes entering MPI_Finalize' "$log" || true)
      # Rows under a "defects" header whose last column is not zero.
      defects=$(awk '/defects/ {t = 1; next} /^#/ {t = 0} t && NF >= 6 && $NF + 0 > 0' "$log" | wc -l)
      printf '%-5s %-11s %-15s %-4s %-11s %-9s %s\n' "$suite" "$set" "${job#-n }" "$status" "$ran" \
        "$finalized" "$defects"
      [[ $status == 0 && $finalized == 1 && $defects == 0 ]] || failures=$((failures + 1))
    done
  done
done
echo "logs in $work; failed runs: $failures"
[[ $failures == 0 ]]
