// tuning_agreement_check: run under hlaunch with HALYARD_TUNING_FILE set on some ranks, or naming
// a file that only some ranks can read (issue 27, item 9). Every rank sends rank 0 the algorithm
// it would choose for bcast at a few sizes (point to point: a collective could deadlock on ranks
// that disagree); rank 0 prints its choices and exits 1 if any rank differs.
#include <array>
#include <cstdio>
#include <string>

#include "collectives/core/comm_shape.hpp"
#include "collectives/select/selection.hpp"
#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

constexpr int kTag = 27;
constexpr std::size_t kText = 256;

std::array<char, kText> choices_of(const Communicator& world) {
  std::string text;
  for (std::size_t bytes : {8u, 4096u, 1048576u}) {
    const select::SelectedAlgorithm chosen =
        select::choose(select::Collective::kBcast, select::shape_of(world), bytes);
    text += std::to_string(bytes) + " B: " + select::algorithm_name(chosen) + "; ";
  }
  std::array<char, kText> out{};
  text.copy(out.data(), out.size() - 1);
  return out;
}

}  // namespace

int main() {
  Runtime runtime;
  const Communicator& world = runtime.world();
  const std::array<char, kText> mine = choices_of(world);
  if (world.rank() != 0) {
    world.send(0, kTag, mine.data(), mine.size());
    return 0;
  }
  std::printf("rank 0 chose %s\n", mine.data());
  int differ = 0;
  for (int peer = 1; peer < world.size(); ++peer) {
    std::array<char, kText> theirs{};
    world.recv(peer, kTag, theirs.data(), theirs.size());
    if (theirs != mine) {
      std::printf("rank %d chose %s\n", peer, theirs.data());
      ++differ;
    }
  }
  return differ == 0 ? 0 : 1;
}
