// The contract between the runtime's matching engine and a transport (ofi, shm, cuda_ipc).
//
// Transports move bytes; they do not match. Every message carries an Envelope; the receiving
// transport announces each arrival to the runtime as an IncomingMessage, in the order the
// sender sent them to this process (per pair). The runtime matches it against posted receives
// (MPI rules: context, source, tag, any-source, any-tag) or keeps it as unexpected, and later
// calls deliver() with the destination. So any-source works across transports, and one
// matching engine serves all of them.
//
// Small payloads travel eagerly with the envelope; large ones stay at the sender until
// deliver() pulls them (RMA read, CMA single copy, or a clear-to-send handshake): a
// receiver-driven rendezvous, so data moves straight into the user's buffer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "runtime/support/copy_bytes.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/inline_function.hpp"

namespace halyard {

class BootstrapClient;
class TopologyTable;

// Called once the operation is done; a non-ok Status says why it failed. Runs from
// Transport::progress() (so from the event loop), never from inside send()/deliver().
// Copyable like std::function, but captures up to 48 bytes (a Request, a pointer or two and a
// shared_ptr) are stored in place: no allocation per message.
using Completion = InlineFunction<void(const Status&), 48, true>;

// Matching information every message carries. Fixed size and trivially copyable: it goes on
// the wire as-is (all ranks of a job run on one architecture).
struct Envelope {
  std::uint32_t context = 0;  // communicator context id (each communicator has its own)
  std::int32_t source = 0;    // sender's rank in the world (the runtime maps it to comm rank)
  std::int32_t tag = 0;       // user tag, or an internal one (active messages, collectives)
  std::uint32_t flags = 0;    // runtime-defined (e.g. active message); transports pass it on
  std::uint64_t size = 0;     // total payload bytes
};
static_assert(sizeof(Envelope) == 24);

// One message that arrived, seen from the receiving side.
class IncomingMessage {
 public:
  virtual ~IncomingMessage() = default;
  const Envelope& envelope() const { return envelope_; }

  // Moves the payload into `dst`. When `capacity` < envelope().size only `capacity` bytes are
  // written and `done` gets kTruncated; the sender's side still completes (with success).
  // Called exactly once per message, from the event loop; `done` runs from a later progress().
  virtual void deliver(void* dst, std::size_t capacity, Completion done) = 0;

  // True when deliver() may also be called from inside the IncomingHandler call that announces
  // the message (so from the transport's progress()). Then a receive that is already posted
  // gets the payload at once, with no deferred pass and no intermediate copy; `done` still runs
  // from a later point of progress(), never inside deliver().
  virtual bool deliverable_while_announced() const { return false; }

  // The synchronous form of deliver() for payloads the transport already holds (eager ones):
  // copies at most `capacity` bytes into `dst` now and returns the receive's status (ok, or
  // kTruncated with the bytes written). Returns nullopt, touching nothing, when the payload
  // must be fetched with deliver() (a rendezvous). Allowed wherever deliver() is; a message is
  // delivered once, by one of the two.
  virtual std::optional<Status> deliver_now(void* /*dst*/, std::size_t /*capacity*/) {
    return std::nullopt;
  }

  // The runtime will never deliver this message (the process failed): a transport whose sender
  // still holds the payload tells it so, and its send completes without waiting for a read.
  // Called at most once, instead of deliver().
  virtual void decline() {}

 protected:
  explicit IncomingMessage(const Envelope& e) : envelope_(e) {}

 private:
  Envelope envelope_;
};

using IncomingHandler = std::function<void(std::unique_ptr<IncomingMessage>)>;

// An eager payload a transport holds while it announces it: one piece, or two when it wraps
// around the end of a ring.
struct EagerPayload {
  const std::byte* first = nullptr;
  std::size_t first_bytes = 0;
  const std::byte* second = nullptr;
  std::size_t second_bytes = 0;

  // Copies the first `n` bytes (n <= first_bytes + second_bytes) into `dst`.
  void copy_to(void* dst, std::size_t n) const {
    std::size_t head = n < first_bytes ? n : first_bytes;
    if (head > 0) copy_bytes(dst, first, head);
    if (n > head) copy_bytes(static_cast<std::byte*>(dst) + head, second, n - head);
  }
};

// The runtime's short cut for eager arrivals (the latency of every small message): a transport
// offers the arrival before it builds an IncomingMessage. When a posted receive matches, the
// payload is copied into it and the receive completes, all inside the call, and it returns
// true: the transport announces nothing. False (nothing posted matches, or the runtime wants
// the message object) means: announce it through the IncomingHandler as usual.
class EagerMatcher {
 public:
  virtual bool offer_eager(const Envelope& envelope, const EagerPayload& payload) = 0;

 protected:
  ~EagerMatcher() = default;
};

class Transport {
 public:
  virtual ~Transport() = default;

  virtual std::string_view name() const = 0;

  // Wiring, in two phases around one bootstrap fence that the runtime runs:
  // publish() puts this process's address(es) into the key-value store; connect() reads the
  // peers' it needs (it may also defer that to the first send to each peer).
  virtual void publish(BootstrapClient& bootstrap) = 0;
  virtual void connect(BootstrapClient& bootstrap, const TopologyTable& topology) = 0;

  // Every arrival goes to this handler, from progress(). Set once, before connect().
  virtual void set_incoming_handler(IncomingHandler handler) = 0;
  // Optional: transports that hold eager payloads offer them here first (see EagerMatcher).
  // Set before connect(), together with the handler; null turns the short cut off.
  virtual void set_eager_matcher(EagerMatcher* /*matcher*/) {}

  // Starts sending `env.size` bytes at `buf` to world rank `peer`. `done` runs once `buf` may
  // be reused. Never blocks: a full queue or -FI_EAGAIN keeps the send pending until a later
  // progress().
  virtual void send(int peer, const Envelope& env, const void* buf, Completion done) = 0;

  // The synchronous form of send() for messages the transport can hand over whole right now
  // (eager, nothing queued before it for `peer`, room to write it): then `buf` may be reused at
  // once, no completion will run, and it returns true. Otherwise it does nothing and returns
  // false, and the caller uses send(). Order per pair is kept either way.
  virtual bool send_now(int /*peer*/, const Envelope& /*env*/, const void* /*buf*/) {
    return false;
  }

  // One non-blocking pass: completes what finished, announces arrivals, retries what was
  // pending. Returns how many events it handled (0 means "nothing happened").
  virtual int progress() = 0;

  // A file descriptor that becomes readable when progress() may have work, so an idle event
  // loop can sleep in poll(); -1 when the transport cannot provide one. Before sleeping, the
  // loop calls prepare_to_block(); if it returns false there is work already and the loop
  // must not sleep.
  virtual int wait_fd() { return -1; }
  virtual bool prepare_to_block() { return wait_fd() >= 0; }
  // Optional: a flag that is true whenever progress() may have work; the event loop skips
  // progress() while it reads false. Null (the default): progress() runs on every pass.
  virtual const std::atomic<bool>* work_flag() { return nullptr; }

  // World rank `peer` died (its process is gone). Every operation of this transport that still
  // waits for that peer to move bytes into or out of a local buffer must end: its completion
  // runs, with an error, from a later progress(), and only once nothing more can write into its
  // buffer (a dead process writes nothing, but a copy this process runs must have returned).
  // Operations with live peers are left to finish. The runtime relies on this to complete a
  // failed receive only after its buffer is quiet (docs/reliability.md, "No byte after the
  // error"). The default suits a transport whose operations all finish on their own.
  virtual void peer_failed(int /*peer*/) {}

  // The process failed (a peer died, or the collective watchdog fired): every send of this
  // transport still in progress must complete, from a later progress(), and only once nothing
  // can read its buffer any more, since the runtime completes sends only through their
  // transport (docs/reliability.md, "No byte after the error"). So: drop what was not handed
  // over yet, ask live receivers to give up announcements they have not begun to read, and let
  // what is being read finish. The default suits a transport whose sends all finish on their
  // own.
  virtual void withdraw_sends() {}
};

}  // namespace halyard
