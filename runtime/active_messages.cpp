#include "runtime/active_messages.hpp"

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "runtime/delivery_guard.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/point_to_point.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/log.hpp"
#include "runtime/support/scratch_pool.hpp"

namespace halyard {

namespace {

constexpr std::size_t kEagerPrefix = sizeof(std::uint32_t);
constexpr std::size_t kRendezvousPrefix = sizeof(std::uint32_t) + sizeof(std::uint64_t);

template <typename T>
T read_scalar(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
std::byte* write_scalar(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
  return p + sizeof(T);
}

// A message's bytes: small ones in a vector, large ones in a reused scratch buffer (a fresh
// large block costs a page fault per 4 KiB on first touch and, freed, a heap trim: over ofi a
// window's 60 KiB packs paid both on each side, 0.3-0.5 ms an epoch).
class MessageBytes {
 public:
  explicit MessageBytes(std::size_t bytes) : bytes_(bytes) {
    if (bytes > kPooledFrom) {
      data_ = pooled_.emplace(bytes).data();
    } else {
      small_.resize(bytes);
      data_ = small_.data();
    }
  }
  std::byte* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return bytes_; }

 private:
  static constexpr std::size_t kPooledFrom = 4096;
  std::vector<std::byte> small_;
  std::optional<ScratchBuffer> pooled_;
  std::byte* data_ = nullptr;
  std::size_t bytes_;
};

}  // namespace

struct ActiveMessages::Inbound {
  std::uint32_t context = 0;
  int source = 0;
  int id = 0;
  bool rendezvous = false;
  bool body_ready = false;
  std::optional<MessageBytes> body;  // the (eager or rendezvous-header) message as delivered
  std::span<const std::byte> header;
  std::span<const std::byte> payload;
  std::uint64_t payload_bytes = 0;
  std::shared_ptr<IncomingMessage> payload_message;  // rendezvous: still at the sender
  std::optional<MessageBytes> payload_storage;       // when the handler gave no destination
};

std::size_t ActiveMessages::eager_limit_from_environment() {
  return config::env_bytes("HALYARD_AM_EAGER_LIMIT", kDefaultEagerLimit);
}

ActiveMessages::ActiveMessages(EventLoop& loop, SendFunction send, std::size_t eager_limit)
    : loop_(loop),
      send_(std::move(send)),
      eager_limit_(eager_limit),
      alive_(std::make_shared<bool>(true)) {}

ActiveMessages::~ActiveMessages() = default;

void ActiveMessages::register_handler(std::uint32_t context, int id, AmHandler handler,
                                      AmDestination destination) {
  if (id < 0) {
    throw Error(ErrorCode::kInvalidArgument,
                "register_am_handler: id " + std::to_string(id) + " is negative");
  }
  if (!handler) throw Error(ErrorCode::kInvalidArgument, "register_am_handler: handler is empty");
  HandlerKey key{context, id};
  auto [it, inserted] =
      handlers_.emplace(key, Registration{std::move(handler), std::move(destination)});
  if (!inserted) {
    throw Error(ErrorCode::kInvalidArgument,
                "register_am_handler: id " + std::to_string(id) + " is already registered");
  }
  if (parked_.count(key) != 0) {
    loop_.defer([this, key, alive = std::weak_ptr<bool>(alive_)] {
      if (!alive.expired()) dispatch_parked(key);
    });
  }
}

void ActiveMessages::unregister_handler(std::uint32_t context, int id) {
  handlers_.erase({context, id});
}

void ActiveMessages::unregister_context(std::uint32_t context) {
  std::erase_if(handlers_, [context](const auto& entry) { return entry.first.first == context; });
  std::erase_if(parked_, [this, context](const auto& entry) {
    if (entry.first.first != context) return false;
    undispatched_ -= entry.second.size();
    return true;
  });
}

void ActiveMessages::send(std::uint32_t context, int peer, int id,
                          std::span<const std::byte> header, std::span<const std::byte> payload,
                          Completion done) {
  if (id < 0) {
    throw Error(ErrorCode::kInvalidArgument, "am_send: id " + std::to_string(id) + " is negative");
  }
  if (header.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw Error(ErrorCode::kInvalidArgument, "am_send: header of " + std::to_string(header.size()) +
                                                 " bytes is over the 4 GiB limit");
  }
  const auto header_bytes = static_cast<std::uint32_t>(header.size());
  Envelope env;
  env.context = context;
  env.tag = id;

  if (kEagerPrefix + header.size() + payload.size() <= eager_limit_) {
    // One message; the body is a copy, so the caller's buffers are free at once, but we still
    // report completion from the transport so that send failures reach the caller.
    auto body = std::make_shared<MessageBytes>(kEagerPrefix + header.size() + payload.size());
    std::byte* p = write_scalar(body->data(), header_bytes);
    if (!header.empty()) std::memcpy(p, header.data(), header.size());
    if (!payload.empty()) std::memcpy(p + header.size(), payload.data(), payload.size());
    env.flags = kEnvelopeActiveMessage;
    env.size = body->size();
    std::size_t payload_size = payload.size();
    send_(peer, env, body->data(), [body, payload_size, done = std::move(done)](const Status& s) {
      Status out = s;
      out.bytes = payload_size;
      if (done) done(out);
    });
    return;
  }

  auto body = std::make_shared<std::vector<std::byte>>(kRendezvousPrefix + header.size());
  std::byte* p = write_scalar(body->data(), header_bytes);
  p = write_scalar(p, static_cast<std::uint64_t>(payload.size()));
  if (!header.empty()) std::memcpy(p, header.data(), header.size());

  struct Joint {
    int left = 2;
    Status first_failure;
    Completion done;
    std::size_t payload_size;
  };
  auto joint = std::make_shared<Joint>();
  joint->done = std::move(done);
  joint->payload_size = payload.size();
  auto arrive = [joint](const Status& s) {
    if (!s.ok() && joint->first_failure.ok()) joint->first_failure = s;
    if (--joint->left > 0) return;
    Status out = joint->first_failure;
    out.bytes = joint->payload_size;
    if (joint->done) joint->done(out);
  };

  env.flags = kEnvelopeAmRendezvousHeader;
  env.size = body->size();
  send_(peer, env, body->data(), [body, arrive](const Status& s) { arrive(s); });
  // Same pair, same transport: the payload arrives right after its header.
  env.flags = kEnvelopeAmRendezvousPayload;
  env.size = payload.size();
  send_(peer, env, payload.data(), arrive);
}

void ActiveMessages::arrive(std::unique_ptr<IncomingMessage> message) {
  const Envelope env = message->envelope();
  PairKey pair{env.context, env.source};

  if ((env.flags & kEnvelopeAmRendezvousPayload) != 0) {
    auto it = awaiting_payload_.find(pair);
    if (it == awaiting_payload_.end() || it->second.empty()) {
      log::error("active messages: payload from rank {} without its header; dropped", env.source);
      return;
    }
    std::shared_ptr<Inbound> in = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) awaiting_payload_.erase(it);
    in->payload_message = std::move(message);
    loop_.defer([this, in, alive = std::weak_ptr<bool>(alive_)] {
      if (!alive.expired()) try_dispatch(in);
    });
    return;
  }

  auto in = std::make_shared<Inbound>();
  in->context = env.context;
  in->source = env.source;
  in->id = env.tag;
  in->rendezvous = (env.flags & kEnvelopeAmRendezvousHeader) != 0;
  in->body.emplace(env.size);
  ++undispatched_;
  if (in->rendezvous) awaiting_payload_[pair].push_back(in);

  // deliver() must not run inside the transport's progress(), where we are now.
  std::shared_ptr<IncomingMessage> shared = std::move(message);
  loop_.defer([this, in, shared, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    IncomingMessage& m = *shared;
    m.deliver(in->body->data(), in->body->size(),
              keep_alive_until_done(loop_, shared, [this, in, alive](const Status& s) {
                if (alive.expired()) return;
                if (!s.ok()) {
                  log::error("active messages: receiving from rank {} failed: {}", in->source,
                             s.message);
                  --undispatched_;
                  return;
                }
                in->body_ready = true;
                on_body(in);
              }));
  });
}

void ActiveMessages::on_body(const std::shared_ptr<Inbound>& in) {
  const std::size_t prefix = in->rendezvous ? kRendezvousPrefix : kEagerPrefix;
  const std::byte* data = in->body->data();
  const std::size_t bytes = in->body->size();
  std::size_t header_bytes = bytes >= prefix ? read_scalar<std::uint32_t>(data) : 0;
  if (bytes < prefix || bytes < prefix + header_bytes) {
    log::error("active messages: malformed message from rank {} (id {}); dropped", in->source,
               in->id);
    --undispatched_;
    return;
  }
  in->header = std::span<const std::byte>(data + prefix, header_bytes);
  if (in->rendezvous) {
    in->payload_bytes = read_scalar<std::uint64_t>(data + sizeof(std::uint32_t));
  } else {
    in->payload =
        std::span<const std::byte>(data + prefix + header_bytes, bytes - prefix - header_bytes);
  }
  // We run from a transport's completion: leave its progress() before touching handlers.
  loop_.defer([this, in, alive = std::weak_ptr<bool>(alive_)] {
    if (!alive.expired()) try_dispatch(in);
  });
}

void ActiveMessages::try_dispatch(const std::shared_ptr<Inbound>& in) {
  if (!in->body_ready) return;
  if (in->rendezvous && !in->payload_message) return;
  HandlerKey key{in->context, in->id};
  auto handler = handlers_.find(key);
  auto parked = parked_.find(key);
  // Keep send order behind messages already parked for this id.
  if (handler == handlers_.end() || parked != parked_.end()) {
    if (handler == handlers_.end()) {
      log::debug("active messages: no handler {} yet on context {}; kept", in->id, in->context);
    }
    parked_[key].push_back(in);
    return;
  }
  if (in->rendezvous)
    fetch_payload(in, handler->second);
  else
    run_handler(in);
}

void ActiveMessages::dispatch_parked(const HandlerKey& key) {
  auto parked = parked_.find(key);
  if (parked == parked_.end()) return;
  auto handler = handlers_.find(key);
  if (handler == handlers_.end()) return;
  std::deque<std::shared_ptr<Inbound>> ready = std::move(parked->second);
  parked_.erase(parked);
  for (auto& in : ready) {
    if (in->rendezvous)
      fetch_payload(in, handler->second);
    else
      run_handler(in);
  }
}

void ActiveMessages::fetch_payload(const std::shared_ptr<Inbound>& in, const Registration& reg) {
  void* dst = nullptr;
  if (reg.destination) dst = reg.destination(in->source, in->header, in->payload_bytes);
  if (dst == nullptr && in->payload_bytes > 0) {
    dst = in->payload_storage.emplace(in->payload_bytes).data();
  }
  in->payload = std::span<const std::byte>(static_cast<const std::byte*>(dst), in->payload_bytes);
  std::shared_ptr<IncomingMessage> message = std::move(in->payload_message);
  IncomingMessage& m = *message;
  m.deliver(dst, in->payload_bytes,
            keep_alive_until_done(loop_, message,
                                  [this, in, alive = std::weak_ptr<bool>(alive_)](const Status& s) {
                                    if (alive.expired()) return;
                                    if (!s.ok()) {
                                      log::error("active messages: payload from rank {} failed: {}",
                                                 in->source, s.message);
                                      --undispatched_;
                                      return;
                                    }
                                    // From the transport's progress(): run the handler from the
                                    // loop.
                                    loop_.defer([this, in, alive] {
                                      if (!alive.expired()) run_handler(in);
                                    });
                                  }));
}

void ActiveMessages::run_handler(const std::shared_ptr<Inbound>& in) {
  auto handler = handlers_.find({in->context, in->id});
  --undispatched_;
  if (handler == handlers_.end()) {
    log::warn("active messages: handler {} unregistered before its message ran; dropped", in->id);
    return;
  }
  // Copy: the handler may unregister itself.
  AmHandler fn = handler->second.handler;
  fn(in->source, in->header, in->payload);
}

}  // namespace halyard
