// ActiveMessages: messages that run a registered handler at the receiver instead of matching a
// posted receive.
//
// Wire format (Envelope.tag = handler id, Envelope.context = communicator context):
//  - eager (header + payload small): one message, flags kEnvelopeActiveMessage, body
//    [u32 header bytes][header][payload];
//  - rendezvous: a small message, flags kEnvelopeAmRendezvousHeader, body
//    [u32 header bytes][u64 payload bytes][header], followed on the same pair by the payload as
//    its own message (flags kEnvelopeAmRendezvousPayload). The transport keeps a large payload
//    at the sender until deliver() names a destination, so the receiver picks the destination
//    (the handler's AmDestination, or a buffer the runtime allocates) before data moves.
//
// Handlers run from the event loop's deferred phase. Messages for a handler id nobody
// registered yet are kept and dispatched once it is registered (a peer may send before this
// rank finished setting up). Eager messages from one sender dispatch in send order; a
// rendezvous message dispatches when its payload has landed, so it may overtake later eager
// ones.
//
// Sources here are world ranks; Communicator translates them for its handlers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "runtime/transport.hpp"

namespace halyard {

class EventLoop;

// Runs at the receiver. The spans are valid only during the call.
using AmHandler = std::function<void(int source, std::span<const std::byte> header,
                                     std::span<const std::byte> payload)>;
// Optional: where a rendezvous payload of `payload_bytes` should land; nullptr lets the
// runtime allocate. The memory must stay valid until the handler has run.
using AmDestination =
    std::function<void*(int source, std::span<const std::byte> header, std::size_t payload_bytes)>;

class ActiveMessages {
 public:
  using SendFunction =
      std::function<void(int peer, const Envelope& env, const void* buffer, Completion done)>;

  // Payloads above this (with their header) go by rendezvous; HALYARD_AM_EAGER_LIMIT, default
  // 64 KiB, the ofi transport's eager limit: over ofi an active message up to it is one eager
  // frame, where the rendezvous form takes two (a window's pack of 64 puts of 64 B to another
  // node: osu_put_bw 75 MB/s with 8 KiB, 100-115 with 64 KiB).
  static constexpr std::size_t kDefaultEagerLimit = 64 * 1024;
  static std::size_t eager_limit_from_environment();

  ActiveMessages(EventLoop& loop, SendFunction send, std::size_t eager_limit);
  ~ActiveMessages();
  ActiveMessages(const ActiveMessages&) = delete;
  ActiveMessages& operator=(const ActiveMessages&) = delete;

  // Throws Error(kInvalidArgument) for a negative id or one already registered on `context`.
  void register_handler(std::uint32_t context, int id, AmHandler handler,
                        AmDestination destination = {});
  void unregister_handler(std::uint32_t context, int id);
  // Drops every handler and every undispatched message of `context` (its communicator is gone).
  void unregister_context(std::uint32_t context);

  // Sends to world rank `peer`; `done` runs once header and payload may be reused.
  void send(std::uint32_t context, int peer, int id, std::span<const std::byte> header,
            std::span<const std::byte> payload, Completion done);

  // An arrival whose envelope carries one of the active-message flags.
  void arrive(std::unique_ptr<IncomingMessage> message);

  std::size_t eager_limit() const noexcept { return eager_limit_; }
  // Messages received but not yet handed to a handler (unregistered id, payload in flight).
  std::size_t undispatched() const noexcept { return undispatched_; }

 private:
  struct Inbound;
  struct Registration {
    AmHandler handler;
    AmDestination destination;
  };
  using HandlerKey = std::pair<std::uint32_t, int>;  // (context, id)
  using PairKey = std::pair<std::uint32_t, int>;     // (context, source)

  void on_body(const std::shared_ptr<Inbound>& in);
  void try_dispatch(const std::shared_ptr<Inbound>& in);
  void fetch_payload(const std::shared_ptr<Inbound>& in, const Registration& reg);
  void run_handler(const std::shared_ptr<Inbound>& in);
  void dispatch_parked(const HandlerKey& key);

  EventLoop& loop_;
  SendFunction send_;
  std::size_t eager_limit_;
  std::map<HandlerKey, Registration> handlers_;
  // Rendezvous headers waiting for their payload message, per (context, source), in order.
  std::map<PairKey, std::deque<std::shared_ptr<Inbound>>> awaiting_payload_;
  // Ready messages whose handler is not registered yet.
  std::map<HandlerKey, std::deque<std::shared_ptr<Inbound>>> parked_;
  std::size_t undispatched_ = 0;
  std::shared_ptr<bool> alive_;
};

}  // namespace halyard
