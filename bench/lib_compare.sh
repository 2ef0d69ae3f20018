# Sourced by bench/compare_p2p.sh and bench/compare_shm.sh, which run a Halyard benchmark and Open
# MPI's mpi_pingpong on the same sizes, one after the other, and print the ratios per size. This
# holds what they share; each script keeps its own runs and its own ratio table.

# require_built SCRIPT PROGRAM...: exits 2, naming the first PROGRAM that is not built.
require_built() {
  local script=$1 program
  shift
  for program in "$@"; do
    [[ -x "$program" ]] || { echo "$script: $program not built" >&2; exit 2; }
  done
}

# make_result_files: sets $halyard and $openmpi to temporary files for the two runs' output,
# removed on exit.
make_result_files() {
  halyard=$(mktemp)
  openmpi=$(mktemp)
  trap 'rm -f "$halyard" "$openmpi"' EXIT
}

# print_sources: the first line of each run's output (what ran, and how), as comments.
print_sources() {
  echo "# halyard: $(head -n 1 "$halyard" | sed 's/^# //')"
  echo "# openmpi: $(head -n 1 "$openmpi" | sed 's/^# //')"
}
