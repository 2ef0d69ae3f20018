// halyard_bench_reduction: GB/s of reduce_into for sum on float32, float64, int32, float16 and
// bfloat16,
// at 4 KiB .. 64 MiB, for each kernel family this machine runs, against a plain element loop.
//
// GB/s counts the bytes of one operand (count * element size) per second; the memory traffic is
// three times that (read inout, read in, write inout). Each figure is the best of several timed
// batches. This whole file is compiled with -fno-tree-vectorize (bench/kernels.cmake) so that the
// plain loops stay scalar; the kernels being measured live in the library and keep their flags.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/datatypes/reduction.hpp"
#include "runtime/datatypes/reduction_isa.hpp"

// The plain float16 loop converts one element at a time with the kernels' portable routines,
// compiled here under their own namespace.
#define HALYARD_KERNEL_ISA plain_loop
#include "runtime/datatypes/kernels/half_float_conversion.hpp"

namespace halyard {
namespace {

using Clock = std::chrono::steady_clock;

[[gnu::noinline]] void plain_sum(float* inout, const float* in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) inout[i] += in[i];
}

[[gnu::noinline]] void plain_sum(double* inout, const double* in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) inout[i] += in[i];
}

[[gnu::noinline]] void plain_sum(std::int32_t* inout, const std::int32_t* in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    inout[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(inout[i]) +
                                         static_cast<std::uint32_t>(in[i]));
  }
}

[[gnu::noinline]] void plain_sum_float16(std::uint16_t* inout, const std::uint16_t* in,
                                         std::size_t n) {
  namespace conv = kernels::plain_loop;
  for (std::size_t i = 0; i < n; ++i) {
    inout[i] = conv::float_to_half(conv::half_to_float(inout[i]) + conv::half_to_float(in[i]));
  }
}

[[gnu::noinline]] void plain_sum_bfloat16(std::uint16_t* inout, const std::uint16_t* in,
                                          std::size_t n) {
  namespace conv = kernels::plain_loop;
  for (std::size_t i = 0; i < n; ++i) {
    inout[i] =
        conv::float_to_bfloat16(conv::bfloat16_to_float(inout[i]) + conv::bfloat16_to_float(in[i]));
  }
}

// Operands that stay finite and normal however many times they are summed (no slow paths for
// denormals, infinities or NaN).
void fill(Datatype type, std::vector<unsigned char>& bytes, bool is_in) {
  const std::size_t n = bytes.size() / datatype_size(type);
  for (std::size_t i = 0; i < n; ++i) {
    switch (type) {
      case Datatype::kFloat32: {
        const float v = is_in ? 1e-3f : 1.0f + static_cast<float>(i % 7);
        std::memcpy(bytes.data() + i * 4, &v, 4);
        break;
      }
      case Datatype::kFloat64: {
        const double v = is_in ? 1e-3 : 1.0 + static_cast<double>(i % 7);
        std::memcpy(bytes.data() + i * 8, &v, 8);
        break;
      }
      case Datatype::kInt32: {
        const auto v = static_cast<std::int32_t>(is_in ? 3 : i);
        std::memcpy(bytes.data() + i * 4, &v, 4);
        break;
      }
      default: {  // float16: 1.0 + 2^-10 steps, saturating at a finite value; bfloat16: likewise
                  // for 2^-7 + 2^-87
        const std::uint16_t v = is_in ? 0x1400 : 0x3C00;
        std::memcpy(bytes.data() + i * 2, &v, 2);
        break;
      }
    }
  }
}

void run_plain(Datatype type, void* inout, const void* in, std::size_t n) {
  switch (type) {
    case Datatype::kFloat32:
      plain_sum(static_cast<float*>(inout), static_cast<const float*>(in), n);
      break;
    case Datatype::kFloat64:
      plain_sum(static_cast<double*>(inout), static_cast<const double*>(in), n);
      break;
    case Datatype::kInt32:
      plain_sum(static_cast<std::int32_t*>(inout), static_cast<const std::int32_t*>(in), n);
      break;
    case Datatype::kBFloat16:
      plain_sum_bfloat16(static_cast<std::uint16_t*>(inout), static_cast<const std::uint16_t*>(in),
                         n);
      break;
    default:
      plain_sum_float16(static_cast<std::uint16_t*>(inout), static_cast<const std::uint16_t*>(in),
                        n);
      break;
  }
}

// Best operand GB/s over `batches` batches, each long enough (>= min_batch_s) to time well.
template <class Body>
double best_gbps(std::size_t bytes, double min_batch_s, int batches, Body&& body) {
  std::size_t reps = 1;
  for (;;) {  // calibrate
    const auto t0 = Clock::now();
    for (std::size_t r = 0; r < reps; ++r) body();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s >= min_batch_s) break;
    reps = s <= 0 ? reps * 16
                  : std::max<std::size_t>(reps * 2,
                                          static_cast<std::size_t>(reps * min_batch_s / s * 1.2));
  }
  double best = 0;
  for (int b = 0; b < batches; ++b) {
    const auto t0 = Clock::now();
    for (std::size_t r = 0; r < reps; ++r) body();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    best = std::max(best, static_cast<double>(bytes) * static_cast<double>(reps) / s / 1e9);
  }
  return best;
}

std::string size_label(std::size_t bytes) {
  if (bytes >= (1u << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

}  // namespace
}  // namespace halyard

int main(int argc, char** argv) try {
  using namespace halyard;
  const double min_batch_s = argc > 1 ? std::atof(argv[1]) : 0.02;
  const int batches = 5;
  const Datatype types[] = {Datatype::kFloat32, Datatype::kFloat64, Datatype::kInt32,
                            Datatype::kFloat16, Datatype::kBFloat16};
  const std::size_t sizes[] = {4u << 10, 256u << 10, 4u << 20, 64u << 20};
  const ReductionIsa isas[] = {ReductionIsa::kScalar, ReductionIsa::kAvx2, ReductionIsa::kAvx512};

  std::printf("reduce_into(sum) operand GB/s, best of %d batches >= %.3f s; default ISA: %s\n",
              batches, min_batch_s, std::string(reduction_isa()).c_str());
  std::printf("%-9s %-8s %9s %9s %9s %9s\n", "type", "size", "plain", "scalar", "avx2", "avx512");
  for (Datatype type : types) {
    for (std::size_t bytes : sizes) {
      std::vector<unsigned char> inout(bytes);
      std::vector<unsigned char> in(bytes);
      fill(type, in, true);
      const std::size_t n = bytes / datatype_size(type);
      std::printf("%-9s %-8s", std::string(datatype_name(type)).c_str(), size_label(bytes).c_str());
      fill(type, inout, false);
      std::printf(" %9.2f", best_gbps(bytes, min_batch_s, batches,
                                      [&] { run_plain(type, inout.data(), in.data(), n); }));
      for (ReductionIsa isa : isas) {
        if (!reduction_isa_available(isa)) {
          std::printf(" %9s", "-");
          continue;
        }
        use_reduction_isa(isa);
        fill(type, inout, false);
        std::printf(" %9.2f", best_gbps(bytes, min_batch_s, batches, [&] {
                      reduce_into(Op::kSum, type, inout.data(), in.data(), n);
                    }));
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "halyard_bench_reduction: %s\n", e.what());
  return 1;
}
