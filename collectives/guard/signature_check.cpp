#include "collectives/guard/signature_check.hpp"

#include <cstdint>
#include <vector>

#include "collectives/base/base.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace halyard::guard {

namespace {

// The signature on the wire: fixed-width fields, all ranks share one architecture.
struct WireSignature {
  std::uint16_t collective;
  std::uint16_t memory;  // MemoryKind
  std::int32_t datatype;
  std::int32_t op;
  std::int32_t root;
  std::uint64_t count;
};
static_assert(sizeof(WireSignature) == 24);

WireSignature to_wire(const CallSignature& call) {
  return {static_cast<std::uint16_t>(call.collective),
          static_cast<std::uint16_t>(call.memory),
          call.datatype,
          call.op,
          call.root,
          static_cast<std::uint64_t>(call.count)};
}

CallSignature from_wire(const WireSignature& w) {
  // An out-of-range collective from a peer would be a bug in the peer's Halyard, not a user
  // mismatch; it still shows up as a difference, named by its number.
  return {static_cast<core::Collective>(w.collective),
          static_cast<std::size_t>(w.count),
          w.datatype,
          w.op,
          w.root,
          static_cast<MemoryKind>(w.memory)};
}

}  // namespace

bool signature_check_enabled() {
  static const bool enabled = [] {
    std::int64_t v = config::env_int("HALYARD_CHECK", 0);
    if (v != 0 && v != 1) {
      throw Error(ErrorCode::kInvalidArgument,
                  "HALYARD_CHECK='" + std::to_string(v) + "' is not valid: expected 0 or 1");
    }
    return v == 1;
  }();
  return enabled;
}

void check_call_signatures(const Communicator& comm, const CallSignature& call) {
  const int size = comm.size();
  WireSignature mine = to_wire(call);
  std::vector<WireSignature> all(static_cast<std::size_t>(size));
  Status exchanged =
      base::iallgather_bruck(comm, &mine, all.data(), sizeof(WireSignature), Datatype::kUint8)
          .wait();
  if (!exchanged.ok()) {
    throw Error(exchanged.code, "HALYARD_CHECK: exchanging the signature of " + describe(call) +
                                    " failed: " + exchanged.message);
  }
  // The reference is the call most ranks made (the lowest rank's on a tie): then the one rank
  // that got it wrong is the one named. Every rank builds the same message from the same table.
  std::vector<CallSignature> calls;
  calls.reserve(all.size());
  for (const auto& w : all) calls.push_back(from_wire(w));
  std::size_t best = 0, best_votes = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    std::size_t votes = 0;
    for (const auto& c : calls) votes += c == calls[i] ? 1 : 0;
    if (votes > best_votes) {
      best = i;
      best_votes = votes;
    }
  }
  if (best_votes == calls.size()) return;
  const CallSignature& reference = calls[best];
  std::string message = "HALYARD_CHECK: the ranks of a communicator of " + std::to_string(size) +
                        " disagree on a collective call: " + std::to_string(best_votes) +
                        " rank(s) call " + describe(reference);
  for (int r = 0; r < size; ++r) {
    const CallSignature& theirs = calls[static_cast<std::size_t>(r)];
    if (theirs == reference) continue;
    message += "; rank " + std::to_string(r) + " calls " + describe(theirs) + ": " +
               differences(theirs, reference);
  }
  throw Error(ErrorCode::kInvalidArgument, message);
}

}  // namespace halyard::guard
