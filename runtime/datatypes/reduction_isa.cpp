#include "runtime/datatypes/reduction_isa.hpp"

#include <atomic>
#include <iterator>
#include <string>

#include "runtime/datatypes/reduction.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

constexpr int kNotChosen = -1;
std::atomic<int> g_active_isa{kNotChosen};

// Every CPU with AVX2 also has F16C, and clang's __builtin_cpu_supports does not know "f16c",
// so AVX2 and FMA are what we test.
bool cpu_runs(ReductionIsa isa) {
#if defined(HALYARD_REDUCTION_X86)
  __builtin_cpu_init();
  switch (isa) {
    case ReductionIsa::kScalar:
      return true;
    case ReductionIsa::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case ReductionIsa::kAvx512:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
             __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  }
  return false;
#else
  return isa == ReductionIsa::kScalar;
#endif
}

std::string available_list() {
  std::string list;
  for (ReductionIsa isa : available_reduction_isas()) {
    if (!list.empty()) list += "|";
    list += reduction_isa_name(isa);
  }
  return list;
}

[[noreturn]] void reject_unavailable(std::string_view what, ReductionIsa isa) {
  throw Error(ErrorCode::kUnsupported,
              std::string(what) + ": the " + std::string(reduction_isa_name(isa)) +
                  " reduction kernels are not available on this machine (available: " +
                  available_list() + ")");
}

}  // namespace

std::string_view reduction_isa_name(ReductionIsa isa) {
  switch (isa) {
    case ReductionIsa::kScalar:
      return "scalar";
    case ReductionIsa::kAvx2:
      return "avx2";
    case ReductionIsa::kAvx512:
      return "avx512";
  }
  return "invalid";
}

bool reduction_isa_available(ReductionIsa isa) {
  static const bool available[] = {cpu_runs(ReductionIsa::kScalar), cpu_runs(ReductionIsa::kAvx2),
                                   cpu_runs(ReductionIsa::kAvx512)};
  const auto index = static_cast<std::size_t>(isa);
  return index < std::size(available) && available[index];
}

std::vector<ReductionIsa> available_reduction_isas() {
  std::vector<ReductionIsa> out;
  for (ReductionIsa isa : {ReductionIsa::kScalar, ReductionIsa::kAvx2, ReductionIsa::kAvx512}) {
    if (reduction_isa_available(isa)) out.push_back(isa);
  }
  return out;
}

ReductionIsa reduction_isa_from_environment() {
  const std::string wanted =
      config::env_choice("HALYARD_REDUCE_ISA", {"auto", "scalar", "avx2", "avx512"}, "auto");
  if (wanted == "auto") return available_reduction_isas().back();
  ReductionIsa isa = ReductionIsa::kScalar;
  if (wanted == "avx2") isa = ReductionIsa::kAvx2;
  if (wanted == "avx512") isa = ReductionIsa::kAvx512;
  if (!reduction_isa_available(isa)) reject_unavailable("HALYARD_REDUCE_ISA=" + wanted, isa);
  return isa;
}

ReductionIsa active_reduction_isa() {
  int chosen = g_active_isa.load(std::memory_order_acquire);
  if (chosen == kNotChosen) {
    // Racing first callers read the same environment; the first store wins.
    int expected = kNotChosen;
    g_active_isa.compare_exchange_strong(
        expected, static_cast<int>(reduction_isa_from_environment()), std::memory_order_acq_rel);
    chosen = g_active_isa.load(std::memory_order_acquire);
  }
  return static_cast<ReductionIsa>(chosen);
}

void use_reduction_isa(ReductionIsa isa) {
  if (!reduction_isa_available(isa)) {
    reject_unavailable("reduction ISA " + std::string(reduction_isa_name(isa)), isa);
  }
  g_active_isa.store(static_cast<int>(isa), std::memory_order_release);
}

const kernels::ReductionKernelTable& reduction_kernels(ReductionIsa isa) {
  if (!reduction_isa_available(isa)) {
    reject_unavailable("reduction ISA " + std::string(reduction_isa_name(isa)), isa);
  }
#if defined(HALYARD_REDUCTION_X86)
  if (isa == ReductionIsa::kAvx512) return kernels::avx512_reduction_kernels();
  if (isa == ReductionIsa::kAvx2) return kernels::avx2_reduction_kernels();
#endif
  return kernels::scalar_reduction_kernels();
}

std::string_view reduction_isa() {
  return reduction_isa_name(active_reduction_isa());
}

}  // namespace halyard
