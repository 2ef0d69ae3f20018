// Misuse of the typed API that must not compile, one case per TYPED_MISUSE_* macro
// (tests/typed/CMakeLists.txt compiles each and expects the typed API's own message). Without a
// macro it compiles: the correct calls next to each case.
#include <complex>
#include <span>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

struct Bytes {
  int a, b;
};

[[maybe_unused]] void misuse(const halyard::Communicator& comm, halyard::Window& window) {
  std::vector<double> values(4), results(4);
  halyard::allreduce(comm, values, results, halyard::max);
  halyard::accumulate(window, values, 0, 0, halyard::max);
  [[maybe_unused]] auto plan =
      halyard::allreduce_init(comm, std::span<const double>(values), results);
#if defined(TYPED_MISUSE_NON_TRIVIAL)
  std::vector<std::string> names(4);
  halyard::bcast(comm, names, 0);
#elif defined(TYPED_MISUSE_BYTES_WITH_SUM)
  std::vector<Bytes> in(4), out(4);
  halyard::allreduce(comm, in, out, halyard::sum);
#elif defined(TYPED_MISUSE_BITWISE_FLOAT)
  halyard::allreduce(comm, values, results, halyard::bxor);
#elif defined(TYPED_MISUSE_COMPLEX_MAX)
  std::vector<std::complex<float> > z(4);
  halyard::allreduce(comm, z, halyard::max);
#elif defined(TYPED_MISUSE_CONST_RECEIVE)
  const std::vector<double> fixed(4);
  halyard::allreduce(comm, values, fixed);
#elif defined(TYPED_MISUSE_MIXED_TYPES)
  std::vector<float> floats(4);
  halyard::allreduce(comm, values, floats);
#elif defined(TYPED_MISUSE_SCAN_LAMBDA)
  halyard::scan(comm, values, [](double a, double b) { return a + b; });
#elif defined(TYPED_MISUSE_ACCUMULATE_BYTES)
  std::vector<Bytes> in(4);
  halyard::accumulate(window, in, 0, 0, halyard::sum);
#elif defined(TYPED_MISUSE_ACCUMULATE_COMPLEX_PROD)
  std::vector<std::complex<double> > z(4);
  halyard::accumulate(window, z, 0, 0, halyard::prod);
#elif defined(TYPED_MISUSE_TEMPORARY_PLAN)
  auto dangling = halyard::allreduce_init(comm, std::vector<double>(4), results);
#endif
}

}  // namespace

int main() {
  return 0;
}
