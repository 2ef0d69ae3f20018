#!/usr/bin/env bash
# install_and_consume.sh BUILD_DIR: what a new user does with an installed Halyard.
#   1. cmake --install into a temporary prefix, then move the tree (an installed tree must not
#      depend on where it was first put);
#   2. compile each public header (halyard.hpp and every Halyard header it reaches) on its own;
#   3. build an outside project with find_package(Halyard) and the compiler's default standard,
#      and run it under the installed hlaunch on 2 ranks;
#   4. build the same program with nothing but `pkg-config --cflags --libs halyard` and run it;
#   5. when the build has the Python module, import it from the prefix and allreduce on 2 ranks;
#   6. when it has the torch backend, import torch and then halyard.torch from the prefix, with
#      glibc's default TLS tunables, and allreduce a tensor through torch.distributed on 2 ranks.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/first" >/dev/null
mv "$work/first" "$work/prefix"
prefix=$work/prefix
export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name halyard.pc)")
echo "installed and moved to $prefix; pkg-config prefix: $(pkg-config --variable=prefix halyard)"
[[ $(cd "$(pkg-config --variable=includedir halyard)" && pwd) == "$prefix/include" ]] ||
  { echo "FAIL: halyard.pc's includedir is not under the moved prefix" >&2; exit 1; }

read -ra cflags <<<"$(pkg-config --cflags halyard)"
top=$prefix/include/halyard/halyard.hpp
mapfile -t headers < <(c++ "${cflags[@]}" -MM "$top" | tr ' \\' '\n\n' | grep "^$prefix/.*\.hpp$" | sort -u)
(( ${#headers[@]} > 10 )) || { echo "FAIL: only ${#headers[@]} public headers found" >&2; exit 1; }
printf '%s\n' "${headers[@]}" |
  xargs -P "$(nproc)" -I{} sh -c 'h=$1; shift; printf "#include \"%s\"\n" "$h" |
    c++ "$@" -fsyntax-only -x c++ - || { echo "FAIL: $h does not compile on its own" >&2; exit 255; }' \
    sh {} "${cflags[@]}"
echo "each of ${#headers[@]} public headers compiles on its own"

cmake -S "$here/consumer" -B "$work/cmake-consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-consumer" >/dev/null
"$prefix/bin/hlaunch" -n 2 --timeout 60 "$work/cmake-consumer/consumer"

read -ra libs <<<"$(pkg-config --libs halyard)"
c++ "$here/consumer/main.cpp" "${cflags[@]}" "${libs[@]}" \
  -Wl,-rpath,"$(pkg-config --variable=libdir halyard)" -o "$work/pkgconfig-consumer"
"$prefix/bin/hlaunch" -n 2 --timeout 60 "$work/pkgconfig-consumer"
echo "both outside projects built and ran"

module=$(find "$prefix" -name '_halyard.cpython*.so')
if [[ -z $module ]]; then
  echo "no Python module in this build (HALYARD_PYTHON): not checked from the prefix"
  exit 0
fi
PYTHONPATH=$(dirname "$(dirname "$module")") "$prefix/bin/hlaunch" -n 2 --timeout 60 \
  "${HALYARD_TEST_PYTHON:-/usr/bin/python3}" -c '
import numpy as np, halyard
rt = halyard.Runtime(); w = rt.world
out = w.allreduce(np.full(3, w.rank + 1, np.float32), np.empty(3, np.float32))
assert halyard.__file__.startswith("'"$prefix"'") and (out == 3).all(), (halyard.__file__, out)
print("python from the prefix: rank", w.rank, "ok")'


if [[ -z $(find "$prefix" -name '_halyard_torch.cpython*.so') ]]; then
  echo "no torch backend in this build (HALYARD_TORCH): not checked from the prefix"
  exit 0
fi
# torch first, with glibc's default spare static TLS (512 B optional: hlaunch adds more unless
# the tunable is named), as a plain python3 would import them (docs/python.md).
PYTHONPATH=$(dirname "$(dirname "$module")") "$prefix/bin/hlaunch" -n 2 --timeout 120 \
  -x GLIBC_TUNABLES=glibc.rtld.optional_static_tls=512 \
  "${HALYARD_TEST_PYTHON:-/usr/bin/python3}" -c '
import torch, torch.distributed as dist, halyard.torch
halyard.torch.init_process_group()
t = torch.full((5,), float(dist.get_rank() + 1))
dist.all_reduce(t)
assert halyard.torch.__file__.startswith("'"$prefix"'") and dist.get_backend() == "halyard" \
    and t.tolist() == [3.0] * 5, (halyard.torch.__file__, dist.get_backend(), t)
print("halyard.torch from the prefix: rank", dist.get_rank(), "ok")
dist.destroy_process_group()'
