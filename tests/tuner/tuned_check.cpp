// tuned_check TABLE: run under hlaunch with HALYARD_TUNING_FILE=TABLE. For bcast and allreduce
// at sampled sizes, between them and beyond them, checks that the runtime's choice is the
// table's (a HAN configuration: the built-in rules never carry one), then runs the collective
// through the public API and compares every element with the expected value. Exits 1 on any
// difference.
#include <cstdio>
#include <string>
#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/core/comm_shape.hpp"
#include "collectives/han/han_config.hpp"
#include "collectives/select/selection.hpp"
#include "collectives/select/tuning_table_json.hpp"
#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

int failures = 0;

void expect(bool ok, const std::string& what, int rank) {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "tuned_check rank %d: %s\n", rank, what.c_str());
}

std::int32_t value(int rank, std::size_t i) {
  return static_cast<std::int32_t>(rank * 7 + static_cast<int>(i % 13));
}

void check_choice(const Communicator& world, const select::TuningTable& table,
                  select::Collective collective, std::size_t bytes) {
  const select::CommShape shape = select::shape_of(world);
  const select::SelectedAlgorithm chosen = select::choose(collective, shape, bytes);
  const auto expected = table.lookup(collective, shape, bytes);
  const std::string what =
      std::string(select::collective_name(collective)) + " " + std::to_string(bytes) + " B";
  expect(expected.has_value(), what + ": no table entry for this shape", world.rank());
  expect(expected && chosen == *expected,
         what + ": the runtime chose " + select::algorithm_name(chosen) + " " +
             han::describe(chosen.han) + ", not the table's",
         world.rank());
  expect(chosen.algorithm == select::Algorithm::kHan && !chosen.han.empty(),
         what + ": not a tuned HAN configuration", world.rank());
  if (world.rank() == 0) {
    std::printf("%s: %s %s\n", what.c_str(), select::algorithm_name(chosen).c_str(),
                han::describe(chosen.han).c_str());
  }
}

void check_bcast(const Communicator& world, std::size_t count, int root) {
  std::vector<std::int32_t> data(count);
  for (std::size_t i = 0; i < count; ++i) data[i] = world.rank() == root ? value(root, i) : -1;
  bcast(world, data.data(), count, Datatype::kInt32, root);
  for (std::size_t i = 0; i < count; ++i) {
    if (data[i] != value(root, i)) {
      expect(false,
             "bcast element " + std::to_string(i) + " of " + std::to_string(count) + " from root " +
                 std::to_string(root) + " is wrong",
             world.rank());
      return;
    }
  }
}

void check_allreduce(const Communicator& world, std::size_t count) {
  std::vector<std::int32_t> send(count), recv(count, -1);
  for (std::size_t i = 0; i < count; ++i) send[i] = value(world.rank(), i);
  allreduce(world, send.data(), recv.data(), count, Datatype::kInt32, Op::kSum);
  for (std::size_t i = 0; i < count; ++i) {
    std::int32_t expected = 0;
    for (int r = 0; r < world.size(); ++r) expected += value(r, i);
    if (recv[i] != expected) {
      expect(
          false,
          "allreduce element " + std::to_string(i) + " of " + std::to_string(count) + " is wrong",
          world.rank());
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tuned_check TABLE (with HALYARD_TUNING_FILE=TABLE)\n");
    return 2;
  }
  Runtime runtime;
  const Communicator& world = runtime.world();
  const select::TuningTable table = select::load_tuning_table(argv[1]);
  // Sampled (16K, 64K), between them (40K), below (4K) and beyond (1M) the samples.
  for (std::size_t bytes : {4096u, 16384u, 40960u, 65536u, 1048576u}) {
    for (auto collective : {select::Collective::kBcast, select::Collective::kAllreduce}) {
      check_choice(world, table, collective, bytes);
    }
    const std::size_t count = bytes / sizeof(std::int32_t);
    check_bcast(world, count, 0);
    check_bcast(world, count, world.size() - 1);
    check_allreduce(world, count);
  }
  int total = 0;
  allreduce(world, &failures, &total, 1, Datatype::kInt32, Op::kSum);
  if (world.rank() == 0) std::printf("tuned_check: %d failures\n", total);
  runtime.finalize();
  return total == 0 ? 0 : 1;
}
