#!/usr/bin/env bash
# The profiling interface covers every call (issue 25): for each MPI_X that mpi.h declares,
# libhalyard_mpi.so exports PMPI_X (a defined function) and MPI_X as a weak symbol. The names
# are read from mpi.h here, independently of the build's generator, so a call added later
# cannot lack its PMPI_ twin without this failing.
#
#   check_profiling_symbols.sh MPI_H LIBRARY
set -uo pipefail
export LC_ALL=C # one collation for sort and comm
header=$1 library=$2
# A call: any MPI_<Capital><lower...> followed by "(" (however the declaration is laid out, so
# this is stricter than the generator's one-line pattern), less the function types of typedefs.
names() { grep -oE "$1" "$header" | grep -oE 'MPI_[A-Z][a-z0-9_]*' | sort -u; }
mapfile -t calls < <(comm -23 <(names '\bMPI_[A-Z][a-z0-9_]*\s*\(') \
  <(names 'typedef [A-Za-z_ ]+[ *]MPI_[A-Z][a-z0-9_]*\s*\('))
symbols=$(nm -D --defined-only "$library") || exit 1
failed=0
for call in "${calls[@]}"; do
  grep -qE "^[0-9a-f]+ T P$call\$" <<<"$symbols" || {
    echo "FAIL: P$call is not exported by $library"
    failed=1
  }
  grep -qE "^[0-9a-f]+ W $call\$" <<<"$symbols" || {
    echo "FAIL: $call is not a weak symbol of $library"
    failed=1
  }
done
# The count guards against a header the pattern no longer reads.
if [[ ${#calls[@]} -lt 200 ]]; then
  echo "FAIL: only ${#calls[@]} calls found in $header"
  failed=1
fi
[[ $failed -eq 0 ]] && echo "ok: ${#calls[@]} calls of mpi.h, each with its PMPI_ twin and weak"
exit $failed
