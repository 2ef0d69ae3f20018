#include "collectives/guard/call_guard.hpp"

#include "runtime/collective_watchdog.hpp"

namespace halyard::guard {

void watch_collective(const Communicator& comm, const CallSignature& call, const Request& request) {
  if (!comm.valid() || request.done()) return;
  if (CollectiveWatchdog* watchdog = collective_watchdog_of(comm)) {
    watchdog->watch(comm, describe(call), request);
  }
}

}  // namespace halyard::guard
