// The tag and source values of point-to-point matching.
//
// User tags are >= 0. Negative tags belong to the library (communicator creation,
// collectives): they travel in the same communicator context but never match a user receive,
// not even one with kAnyTag, so library traffic and user traffic cannot steal each other's
// messages (the same rule Open MPI uses for its collective tags).
#pragma once

namespace halyard {

inline constexpr int kAnySource = -1;
inline constexpr int kAnyTag = -1;

// Tags the runtime itself uses (communicator creation).
inline constexpr int kCommCreateTag = -2;
// Collectives use tags <= kFirstCollectiveTag; -3..-15 stay reserved for the runtime.
inline constexpr int kFirstCollectiveTag = -16;

constexpr bool is_user_tag(int tag) {
  return tag >= 0;
}
constexpr bool is_library_tag(int tag) {
  return tag < kAnyTag;
}

}  // namespace halyard
