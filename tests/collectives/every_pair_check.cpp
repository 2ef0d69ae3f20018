// Every valid (datatype, op) pair through allreduce and reduce, on whatever algorithms the
// job's HALYARD_ALLREDUCE_ALG / HALYARD_REDUCE_ALG select, checked element by element against a
// serial reduction of every rank's contribution.
//
// Contributions are small integers (1..3, or 1..2 for prod) so that every datatype represents
// every partial result exactly, whatever order the algorithm combines them in.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "halyard/halyard.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "tests/helpers/small_integers.hpp"

namespace {

using namespace halyard;
using halyard::testing::store;

constexpr std::size_t kCount = 37;  // odd, and not a multiple of any vector width

std::vector<std::byte> contribution(Datatype type, Op op, int rank) {
  std::vector<std::byte> data(kCount * datatype_size(type));
  const unsigned spread = op == Op::kProd ? 2 : 3;
  for (std::size_t i = 0; i < kCount; ++i) {
    store(type, data, i, static_cast<unsigned>((static_cast<std::size_t>(rank) + i) % spread) + 1);
  }
  return data;
}

int failures = 0;

void compare(const char* what, Datatype type, Op op, int rank, const std::vector<std::byte>& got,
             const std::vector<std::byte>& expected) {
  const std::size_t width = datatype_size(type);
  for (std::size_t i = 0; i < kCount; ++i) {
    if (std::memcmp(got.data() + i * width, expected.data() + i * width, width) != 0) {
      std::fprintf(stderr, "rank %d: %s %s/%s differs at element %zu\n", rank, what,
                   std::string(datatype_name(type)).c_str(), std::string(op_name(op)).c_str(), i);
      ++failures;
      return;
    }
  }
}

}  // namespace

int main() {
  Runtime runtime;
  const Communicator& world = runtime.world();
  const int rank = world.rank();
  const int size = world.size();
  const int root = size - 1;
  int pairs = 0;
  for (std::size_t t = 0; t < kDatatypeCount; ++t) {
    for (std::size_t o = 0; o < kOpCount; ++o) {
      const auto type = static_cast<Datatype>(t);
      const auto op = static_cast<Op>(o);
      if (!op_supports(op, type)) continue;
      ++pairs;
      std::vector<std::byte> expected = contribution(type, op, 0);
      for (int r = 1; r < size; ++r) {
        reduce_into(op, type, expected.data(), contribution(type, op, r).data(), kCount);
      }
      const std::vector<std::byte> mine = contribution(type, op, rank);
      std::vector<std::byte> all(mine.size()), at_root(mine.size());
      Request a = iallreduce(world, mine.data(), all.data(), kCount, type, op);
      Request b = ireduce(world, mine.data(), at_root.data(), kCount, type, op, root);
      b.wait_ok();
      a.wait_ok();
      compare("allreduce", type, op, rank, all, expected);
      if (rank == root) compare("reduce", type, op, rank, at_root, expected);
    }
  }
  runtime.finalize();
  if (failures > 0) return 1;
  if (rank == 0)
    std::printf("every_pair_check: %d datatype/op pairs correct on %d ranks\n", pairs, size);
  return 0;
}
