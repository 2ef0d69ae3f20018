#include "collectives/guard/call_guard.hpp"

#include "runtime/collective_watchdog.hpp"

namespace halyard::guard {

void watch_collective(const core::CollArgs& args, const Request& request) {
  if (!args.comm.valid() || request.done()) return;
  if (CollectiveWatchdog* watchdog = collective_watchdog_of(args.comm)) {
    watchdog->watch(args.comm, describe(CallSignature::of(args)), request);
  }
}

}  // namespace halyard::guard
