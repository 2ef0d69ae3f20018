#include "launcher/system_info.hpp"

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "launcher/cpu_binding.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "transports/ofi/ofi_capabilities.hpp"

namespace halyard::launcher {

namespace {

const char* yes_no(bool b) {
  return b ? "yes" : "no";
}

std::string padded(const std::string& s, std::size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

// CMA (process_vm_readv) between sibling ranks needs Yama's ptrace_scope at 0 or 1 (the shm
// transport then declares its peers as ptracers); 2 and 3 forbid it and shm falls back to
// copying through the segment.
std::string cma_line() {
  std::ifstream in("/proc/sys/kernel/yama/ptrace_scope");
  int scope = -1;
  if (!(in >> scope)) return "no Yama ptrace_scope (CMA not restricted by Yama)";
  std::string verdict = scope <= 1 ? "single copy allowed" : "single copy refused, copy-in/out";
  return "kernel.yama.ptrace_scope = " + std::to_string(scope) + " (" + verdict + ")";
}

std::string env_or(const char* name, const char* fallback) {
  std::optional<std::string> v = config::env_string(name);
  return v ? *v : std::string(fallback) + " (default)";
}

// The ofi part: libfabric's providers and what they offer, or why libfabric is not there.
std::string ofi_text() {
  std::vector<ofi::ProviderCapabilities> providers;
  std::string version;
  try {
    providers = ofi::provider_capabilities();
    version = ofi::libfabric_version();
  } catch (const Error& e) {
    return std::string("\nofi: unavailable: ") + e.what() + "\n";
  }
  std::string out;
  out += "\nofi: libfabric " + version + ", " + std::to_string(providers.size()) +
         " provider(s) with RDM tagged endpoints";
  out += providers.empty() ? "\n" : " (in libfabric's order of preference):\n";
  if (!providers.empty()) {
    out += "  " + padded("provider", 18) + "rma  atomics  triggered  counters  hmem\n";
  }
  std::string triggered;
  for (const auto& p : providers) {
    out += "  " + padded(p.name, 18) + padded(yes_no(p.rma), 5) + padded(yes_no(p.atomics), 9) +
           padded(yes_no(p.triggered), 11) + padded(std::to_string(p.counters), 10) +
           yes_no(p.hmem) + "\n";
    if (p.triggered) triggered += (triggered.empty() ? "" : ", ") + p.name;
  }
  out += "  HALYARD_OFI_PROVIDER: " + env_or("HALYARD_OFI_PROVIDER", "the first above") + "\n";
  out += "\nTriggered operations (fi_trigger with counters, CORE-Direct style offload): ";
  out += triggered.empty() ? "no provider offers them here\n"
                           : "offered by " + triggered +
                                 "; Halyard's schedules still progress in software "
                                 "(docs/transport-ofi.md)\n";
  return out;
}

}  // namespace

std::string system_info_text() {
  std::string out;
  out += "Halyard " HALYARD_VERSION_STRING "\n";
  out += "CPUs online: " + std::to_string(std::thread::hardware_concurrency()) +
         ", usable here: " + HostTopology().usable_cpus() + "\n";
  out += "Transports built: self, shm, ofi";
#if defined(HALYARD_HAVE_CUDA)
  out += ", cuda_ipc";
#endif
  out += "\n\nshm: " + cma_line() + "\n";

  out += ofi_text();
  out += "\nProgress thread: HALYARD_PROGRESS_THREAD = " + env_or("HALYARD_PROGRESS_THREAD", "0") +
         "\n";
  out += "Idle wait: HALYARD_WAIT = " + env_or("HALYARD_WAIT", "block") + "\n";
  return out;
}

}  // namespace halyard::launcher
