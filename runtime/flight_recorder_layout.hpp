// The flight recorder's file layout, shared by the ranks that write it
// (runtime/flight_recorder.hpp) and hlaunch, which reads it (launcher/recorder_directory.hpp).
//
// One file per rank, mapped shared: a header and a fixed ring of slots, one per collective
// call. hlaunch reads the files itself, so a rank that is stopped (SIGSTOP) or busy computing
// needs to do nothing to be reported. A writer invalidates a slot (record 0) before refilling it
// and publishes the record number last, so a reader that sees the same record number before
// and after copying a slot has a consistent copy.
#pragma once

#include <atomic>
#include <cstdint>

namespace halyard::recorder {

inline constexpr std::uint64_t kMagic = 0x3230434552594c48ull;  // "HLYREC02"

// Ring entries per rank unless HALYARD_RECORDER_SIZE says otherwise (rounded up to a power of
// two, so that a record finds its slot with a mask); at most kMaxSlots.
inline constexpr std::uint32_t kDefaultSlots = 64;
inline constexpr std::uint32_t kMaxSlots = 1u << 16;
inline constexpr std::size_t kNameBytes = 16;  // names are cut to 15 characters and a NUL
// Names (collectives, algorithms) a recorder can hold; a slot refers to one by its index.
inline constexpr std::uint32_t kMaxNames = 128;
inline constexpr std::uint16_t kUnnamed = 0xffff;  // the name table was full
// The watchdog's "waits for" ranks are kept as a bit set of world ranks below this bound.
inline constexpr int kWaitsForRanks = 256;

enum class CallState : std::uint32_t { kPosted = 1, kCompleted = 2, kFailed = 3, kTimedOut = 4 };

// One call, 40 bytes: its names are indices into the header's table, written once per name,
// so that recording a call is a handful of stores.
struct Slot {
  std::uint64_t record;    // this rank's call number, from 1; 0 while the slot is (re)written
  std::uint64_t sequence;  // the call's number on its communicator, from 1
  std::uint64_t bytes;     // this rank's message size (count x datatype size)
  std::uint32_t comm;      // the communicator's context id (the same on every member)
  std::uint32_t comm_size;
  std::uint32_t state;       // a CallState
  std::uint16_t collective;  // index into Header::names ("allreduce")
  std::uint16_t algorithm;   // index into Header::names ("base:ring")
};

struct Header {
  std::uint64_t magic;
  std::uint32_t slots;  // capacity of the ring that follows, a power of two
  std::int32_t rank;    // world rank
  std::int32_t pid;
  std::uint32_t name_count;  // entries of `names` published (each written before the count)
  std::uint64_t records;     // calls recorded so far; slot (records - 1) % slots is the latest
  // Set by HALYARD_COLL_TIMEOUT's watchdog when it gives up: the record it gave up on and the
  // world ranks this rank still waited for messages from (its unmatched receives).
  std::uint64_t waits_for_record;
  std::uint64_t waits_for[kWaitsForRanks / 64];
  char names[kMaxNames][kNameBytes];  // NUL-padded
};

// A call as a reader decodes it from a slot: the names spelled out.
struct Call {
  std::uint64_t record = 0;
  std::uint64_t sequence = 0;
  std::uint64_t bytes = 0;
  std::uint32_t comm = 0;
  std::uint32_t comm_size = 0;
  std::uint32_t state = 0;
  char collective[kNameBytes] = {};
  char algorithm[kNameBytes] = {};
};

inline constexpr std::size_t file_bytes(std::uint32_t slots) {
  return sizeof(Header) + std::size_t{slots} * sizeof(Slot);
}

inline Slot* slots_of(Header* header) {
  return reinterpret_cast<Slot*>(header + 1);
}
inline const Slot* slots_of(const Header* header) {
  return reinterpret_cast<const Slot*>(header + 1);
}

// Stores and loads on the shared mapping: other processes read it while this one writes.
template <class T>
inline void store(T& field, T value, std::memory_order order = std::memory_order_relaxed) {
  std::atomic_ref<T>(field).store(value, order);
}
template <class T>
inline T load(const T& field, std::memory_order order = std::memory_order_relaxed) {
  return std::atomic_ref<T>(const_cast<T&>(field)).load(order);
}

}  // namespace halyard::recorder
