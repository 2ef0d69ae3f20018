// An outside program built against an installed Halyard: an allreduce whose result each rank
// checks, so the job's exit code says whether the installed library works.
#include <halyard/halyard.hpp>

#include <cstdio>
#include <vector>

int main() {
  halyard::Runtime runtime;
  const halyard::Communicator& world = runtime.world();
  const int size = runtime.size();
  std::vector<int> mine(1000, runtime.rank() + 1), sum(mine.size());
  halyard::allreduce(world, mine.data(), sum.data(), mine.size(), halyard::Datatype::kInt32,
                     halyard::Op::kSum);
  const int expected = size * (size + 1) / 2;
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (sum[i] != expected) {
      std::fprintf(stderr, "consumer: rank %d element %zu is %d, expected %d\n", runtime.rank(), i,
                   sum[i], expected);
      return 1;
    }
  }
  std::printf("consumer: rank %d of %d sum %d ok\n", runtime.rank(), size, expected);
  runtime.finalize();
  return 0;
}
