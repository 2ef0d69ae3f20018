// The ofi transport: setup, eager path, frame dispatch and progress. The rendezvous protocol is
// in ofi_rendezvous.cpp; docs/transport-ofi.md describes the wire protocol.
#include "transports/ofi/ofi_transport.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include <rdma/fi_tagged.h>
#include <sys/uio.h>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/log.hpp"
#include "transports/ofi/ofi_incoming.hpp"
#include "transports/ofi/ofi_remote_memory.hpp"
#include "transports/ofi/ofi_source_address.hpp"
#include "transports/ofi/ofi_transport_impl.hpp"

namespace halyard {

std::unique_ptr<Transport> make_ofi_transport(const TransportSettings& runtime) {
  ofi::Settings settings = ofi::Settings::from_environment();
  settings.wait_fd = settings.use_wait_fd(
      runtime.wait_policy, runtime.host_ranks,
      runtime.host_cpus > 0 ? runtime.host_cpus : ::sysconf(_SC_NPROCESSORS_ONLN),
      runtime.progress_thread);
  ofi::tune_provider_environment(settings);
  return std::make_unique<ofi::OfiTransport>(runtime.info, std::move(settings));
}

void register_ofi_transport(TransportRegistry& registry) {
  registry.add(TransportKind::kOfi, make_ofi_transport);
}

namespace ofi {
namespace {

constexpr std::size_t kDefaultEagerLimit = 64 * 1024;
constexpr std::size_t kWholeMessageChunk = std::size_t{1} << 30;
// Over loopback TCP (libfabric 1.17, tcp;ofi_rxm) one read of 1 MiB took 143-162 us, two of
// 512 KiB 110-115 us, and every chunk from 512 to 768 KiB kept 2-16 MiB within 1.15x of Open
// MPI's tcp BTL, while one read per message was 1.3-1.5x behind it (docs/transport-ofi.md).
constexpr std::size_t kSocketChunk = std::size_t{512} << 10;
constexpr int kDefaultFrameBuffers = 32;
constexpr std::size_t kCompletionBatch = 16;

std::string hex_encode(const std::string& raw) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::string hex_decode(const std::string& text, const std::string& key) {
  std::string out;
  bool valid = text.size() % 2 == 0;
  for (std::size_t i = 0; valid && i < text.size(); i += 2) {
    int high = hex_digit(text[i]);
    int low = hex_digit(text[i + 1]);
    valid = high >= 0 && low >= 0;
    out.push_back(static_cast<char>((high << 4) | low));
  }
  if (!valid) throw Error(ErrorCode::kBootstrap, "malformed endpoint address under '" + key + "'");
  return out;
}

std::string address_key(int rank) {
  return "ofi/" + std::to_string(rank);
}

}  // namespace

void tune_provider_environment(const Settings& settings) {
  // ofi_rxm sends a message in one piece only up to its own eager limit (16 KiB by default);
  // above it, its segmentation protocol costs about 30 us more per message on loopback TCP
  // (docs/transport-ofi.md). Raise the limit so every eager frame of ours fits, unless the user
  // chose a value. libfabric reads it when it initializes, at the first fi_getinfo.
  const std::size_t frame = sizeof(EagerFrame) + settings.eager_limit;
  ::setenv("FI_OFI_RXM_EAGER_LIMIT", std::to_string(frame).c_str(), /*overwrite=*/0);
}

Settings Settings::from_environment() {
  Settings s;
  s.provider = config::env_string("HALYARD_OFI_PROVIDER");
  std::string rma = config::env_choice("HALYARD_OFI_RMA", {"auto", "on", "off"}, "auto");
  s.rma = rma == "on" ? RmaPolicy::kOn : rma == "off" ? RmaPolicy::kOff : RmaPolicy::kAuto;
  s.eager_limit = config::env_bytes("HALYARD_OFI_EAGER_LIMIT", kDefaultEagerLimit);
  if (s.eager_limit > (std::size_t{1} << 20)) {
    throw Error(ErrorCode::kInvalidArgument,
                "HALYARD_OFI_EAGER_LIMIT='" +
                    config::env_string("HALYARD_OFI_EAGER_LIMIT").value_or("") +
                    "' is not valid: expected at most 1M");
  }
  s.chunk_size = config::env_bytes("HALYARD_OFI_CHUNK_SIZE", 0);
  if (s.chunk_size == 0 && config::env_string("HALYARD_OFI_CHUNK_SIZE")) {
    throw Error(ErrorCode::kInvalidArgument,
                "HALYARD_OFI_CHUNK_SIZE='" +
                    config::env_string("HALYARD_OFI_CHUNK_SIZE").value_or("") +
                    "' is not valid: expected a byte count above 0");
  }
  std::int64_t buffers = config::env_int("HALYARD_OFI_RECV_BUFFERS", kDefaultFrameBuffers);
  if (buffers < 1 || buffers > 65536) {
    throw Error(ErrorCode::kInvalidArgument, "HALYARD_OFI_RECV_BUFFERS='" +
                                                 std::to_string(buffers) +
                                                 "' is not valid: expected 1 to 65536");
  }
  s.frame_buffers = static_cast<int>(buffers);
  const std::string mode = config::env_choice("HALYARD_OFI_WAIT_FD", {"auto", "on", "off"}, "auto");
  s.wait_fd_mode = mode == "on"    ? WaitFdMode::kOn
                   : mode == "off" ? WaitFdMode::kOff
                                   : WaitFdMode::kAuto;
  return s;
}

std::size_t default_chunk_size(const std::string& provider_name) {
  // The core provider comes first in a layered name ("tcp;ofi_rxm").
  const std::string core = provider_name.substr(0, provider_name.find(';'));
  for (const char* socket_provider : {"tcp", "net", "sockets", "udp"}) {
    if (core == socket_provider) return kSocketChunk;
  }
  return kWholeMessageChunk;
}

bool Settings::use_wait_fd(WaitPolicy loop_policy, int ranks_on_host, long cpus_online,
                           bool progress_thread) const {
  if (wait_fd_mode != WaitFdMode::kAuto) return wait_fd_mode == WaitFdMode::kOn;
  // A loop that only spins never sleeps on the fd. Otherwise the fd is worth its price (the
  // provider signals it on every completion: a write and a read, about 1 us per message over
  // tcp) only when ranks outnumber cores, so that idle ones must sleep to let the others run,
  // or when a progress thread runs: it must sleep while the application computes.
  if (loop_policy == WaitPolicy::kSpin) return false;
  if (progress_thread) return true;
  return cpus_online <= 0 || ranks_on_host > cpus_online;
}

OfiTransport::OfiTransport(const LaunchInfo& info, Settings settings)
    : info_(info),
      settings_(std::move(settings)),
      fabric_(settings_.provider, settings_.rma, info.size, settings_.wait_fd,
              source_address_towards(info.server)) {
  const auto peers = static_cast<std::size_t>(info_.size);
  next_sequence_out_.assign(peers, 0);
  next_sequence_in_.assign(peers, 0);
  early_frames_.resize(peers);
  iov_limit_ = fabric_.iov_limit();
  if (settings_.chunk_size == 0) settings_.chunk_size = default_chunk_size(fabric_.provider_name());

  if (fabric_.has_rma_write() && settings_.rma != RmaPolicy::kOff) {
    remote_memory_ = std::make_unique<OfiRemoteMemory>(*this);
  }
  frame_capacity_ = std::max(kMaxControlFrame, sizeof(EagerFrame) + settings_.eager_limit);
  for (int i = 0; i < settings_.frame_buffers; ++i) {
    auto slot = std::make_unique<FrameSlot>();
    slot->context.owner = slot.get();
    slot->bytes.resize(frame_capacity_);
    post_frame_receive(*slot);
    slots_.push_back(std::move(slot));
  }
}

OfiTransport::~OfiTransport() {
  // No provider activity may outlive the buffers and memory regions freed below.
  fabric_.close_endpoint();
  remote_memory_.reset();
  rendezvous_sends_.clear();
  rendezvous_receives_.clear();
}

RemoteMemory* OfiTransport::remote_memory() {
  return remote_memory_.get();
}

void OfiTransport::publish(BootstrapClient& bootstrap) {
  bootstrap.put(address_key(info_.rank), hex_encode(fabric_.local_name()));
}

void OfiTransport::connect(BootstrapClient& bootstrap, const TopologyTable& /*topology*/) {
  // In this version ofi carries all traffic, so every peer (and this rank) goes into the AV.
  addresses_.resize(static_cast<std::size_t>(info_.size));
  for (int peer = 0; peer < info_.size; ++peer) {
    const std::string key = address_key(peer);
    addresses_[static_cast<std::size_t>(peer)] =
        fabric_.insert_address(hex_decode(bootstrap.get(key), key));
  }
  log::debug("ofi: connected to {} ranks over {}", info_.size, fabric_.provider_name());
}

std::size_t OfiTransport::chunk_size() const {
  return std::min(settings_.chunk_size, fabric_.max_message_size());
}

void OfiTransport::check_send(int peer, const Envelope& env, const void* buf) const {
  if (peer < 0 || peer >= info_.size) {
    throw Error(ErrorCode::kInvalidArgument, "ofi send: peer " + std::to_string(peer) +
                                                 " is not a rank of this job of " +
                                                 std::to_string(info_.size));
  }
  if (buf == nullptr && env.size > 0) {
    throw Error(ErrorCode::kInvalidArgument,
                "ofi send: buf is null but env.size is " + std::to_string(env.size));
  }
  if (addresses_.empty()) throw Error(ErrorCode::kInvalidArgument, "ofi send before connect()");
}

EagerFrame OfiTransport::eager_frame(int peer, const Envelope& env) const {
  EagerFrame frame{};
  frame.header.kind = FrameKind::kEager;
  frame.header.sender = info_.rank;
  frame.header.sequence = next_sequence_out_[static_cast<std::size_t>(peer)];
  frame.envelope = env;
  return frame;
}

bool OfiTransport::send_now(int peer, const Envelope& env, const void* buf) {
  check_send(peer, env, buf);
  if (!backlog_.empty() || env.size > settings_.eager_limit ||
      sizeof(EagerFrame) + env.size > fabric_.inject_size()) {
    return false;
  }
  alignas(8) std::byte staging[kMaxInjectSize];
  EagerFrame frame = eager_frame(peer, env);
  std::memcpy(staging, &frame, sizeof frame);
  if (env.size > 0) std::memcpy(staging + sizeof frame, buf, env.size);
  // Anything but success (-FI_EAGAIN or an error) is left to send(), which queues or reports.
  if (fi_tinject(endpoint(), staging, sizeof frame + env.size, address_of(peer), kFrameTag) != 0) {
    return false;
  }
  ++next_sequence_out_[static_cast<std::size_t>(peer)];
  return true;
}

void OfiTransport::send(int peer, const Envelope& env, const void* buf, Completion done) {
  check_send(peer, env, buf);
  if (env.size > settings_.eager_limit) {
    start_rendezvous(peer, env, buf, std::move(done));
    return;
  }
  EagerFrame frame = eager_frame(peer, env);
  ++next_sequence_out_[static_cast<std::size_t>(peer)];
  send_frame(peer, &frame, sizeof frame, buf, env.size, std::move(done));
}

FrameSend* OfiTransport::acquire_frame_send() {
  if (free_frame_sends_.empty()) {
    auto send = std::make_unique<FrameSend>();
    send->context.owner = send.get();
    free_frame_sends_.push_back(send.get());
    frame_sends_.push_back(std::move(send));
  }
  FrameSend* send = free_frame_sends_.back();
  free_frame_sends_.pop_back();
  return send;
}

void OfiTransport::send_frame(int peer, const void* frame, std::size_t frame_size,
                              const void* payload, std::size_t payload_size, Completion done) {
  const std::size_t total = frame_size + payload_size;
  if (backlog_.empty() && total <= fabric_.inject_size()) {
    // Small: the provider copies it at once and reports no completion, so the sender's
    // completion needs no round through the completion queue.
    alignas(8) std::byte staging[kMaxInjectSize];
    std::memcpy(staging, frame, frame_size);
    if (payload_size > 0) std::memcpy(staging + frame_size, payload, payload_size);
    const ssize_t rc = fi_tinject(endpoint(), staging, total, address_of(peer), kFrameTag);
    if (rc == 0) {
      Status sent;
      sent.bytes = payload_size;
      complete_later(std::move(done), std::move(sent));
      return;
    }
    if (rc != -FI_EAGAIN) {
      complete_later(
          std::move(done),
          Status::failure(ErrorCode::kTransport, "ofi: sending to rank " + std::to_string(peer) +
                                                     " failed: " + error_text(rc)));
      return;
    }
    // -FI_EAGAIN: take the queued path below.
  }
  FrameSend* send = acquire_frame_send();
  std::memcpy(send->frame, frame, frame_size);
  send->done = std::move(done);
  send->payload_bytes = payload_size;
  if (payload_size > 0 && iov_limit_ < 2) {
    // The provider gathers only one iovec: frame and payload go out of one copy.
    send->flattened.resize(frame_size + payload_size);
    std::memcpy(send->flattened.data(), frame, frame_size);
    std::memcpy(send->flattened.data() + frame_size, payload, payload_size);
  }
  const fi_addr_t destination = address_of(peer);
  post(
      [this, send, destination, frame_size, payload, payload_size]() -> ssize_t {
        void* context = &send->context.scratch;
        if (!send->flattened.empty()) {
          return fi_tsend(endpoint(), send->flattened.data(), send->flattened.size(), nullptr,
                          destination, kFrameTag, context);
        }
        if (payload_size == 0) {
          return fi_tsend(endpoint(), send->frame, frame_size, nullptr, destination, kFrameTag,
                          context);
        }
        iovec pieces[2] = {{send->frame, frame_size}, {const_cast<void*>(payload), payload_size}};
        return fi_tsendv(endpoint(), pieces, nullptr, 2, destination, kFrameTag, context);
      },
      [this, send, peer](ssize_t rc) {
        Completion failed = std::move(send->done);
        send->flattened.clear();
        free_frame_sends_.push_back(send);
        complete_later(
            std::move(failed),
            Status::failure(ErrorCode::kTransport, "ofi: sending to rank " + std::to_string(peer) +
                                                       " failed: " + error_text(rc)));
      },
      peer);
}

void FrameSend::on_completion(OfiTransport& transport, const fi_cq_tagged_entry&,
                              const Status& status) {
  transport.on_frame_sent(*this, status);
}

void OfiTransport::on_frame_sent(FrameSend& send, const Status& status) {
  Completion done = std::move(send.done);
  Status result = status;
  if (result.ok()) result.bytes = send.payload_bytes;
  send.flattened.clear();
  free_frame_sends_.push_back(&send);
  if (done) done(result);
}

void OfiTransport::complete_later(Completion done, Status status) {
  if (done) deferred_.emplace_back(std::move(done), std::move(status));
}

int OfiTransport::read_completions() {
  int handled = 0;
  fi_cq_tagged_entry entries[kCompletionBatch];
  for (;;) {
    ssize_t n = fi_cq_read(fabric_.completion_queue(), entries, kCompletionBatch);
    if (n > 0) {
      for (ssize_t i = 0; i < n; ++i) {
        auto* context = reinterpret_cast<OpContext*>(entries[i].op_context);
        context->owner->on_completion(*this, entries[i], Status{});
      }
      handled += static_cast<int>(n);
      if (static_cast<std::size_t>(n) < kCompletionBatch) return handled;
      continue;
    }
    if (n == -FI_EAGAIN) return handled;
    if (n != -FI_EAVAIL) {
      log::error("ofi: fi_cq_read failed: {}", error_text(n));
      return handled;
    }
    fi_cq_err_entry error{};
    if (fi_cq_readerr(fabric_.completion_queue(), &error, 0) != 1) return handled;
    fi_cq_tagged_entry entry{};
    entry.op_context = error.op_context;
    entry.flags = error.flags;
    entry.len = error.len;
    entry.tag = error.tag;
    Status status =
        Status::failure(ErrorCode::kTransport, "ofi: " + fabric_.completion_error_text(error));
    if (entry.op_context != nullptr) {
      reinterpret_cast<OpContext*>(entry.op_context)->owner->on_completion(*this, entry, status);
    } else {
      log::error("{}", status.message);
    }
    ++handled;
  }
}

int OfiTransport::retry_backlog() {
  int posted = 0;
  while (!backlog_.empty()) {
    ssize_t rc = backlog_.front().attempt();
    if (rc == -FI_EAGAIN) break;
    Backlogged item = std::move(backlog_.front());
    backlog_.pop_front();
    if (rc != 0) item.fail(rc);
    ++posted;
  }
  return posted;
}

int OfiTransport::progress() {
  int events = 0;
  repost_frame_receives();
  if (!deferred_.empty()) {
    // Completions queued by send()/deliver() or earlier passes; new ones wait for the next pass.
    running_.swap(deferred_);
    struct Clear {
      std::vector<std::pair<Completion, Status>>& v;
      ~Clear() { v.clear(); }  // also when a completion throws: none may run twice
    } clear{running_};
    for (auto& [done, status] : running_) done(status);
    events += static_cast<int>(running_.size());
    // Reading the completion queue costs system calls in most providers; a pass that already
    // did work returns at once (the loop calls again right away), but only every other time,
    // so a steady stream of deferred work cannot starve the queue.
    if (!skipped_completion_read_) {
      skipped_completion_read_ = true;
      return events;
    }
  }
  skipped_completion_read_ = false;
  events += read_completions();
  if (!backlog_.empty()) events += retry_backlog();
  if (withdraw_deadline_) events += end_unanswered_withdrawals();
  return events;
}

bool OfiTransport::prepare_to_block() {
  // Withdrawn sends wait for answers or for their deadline, which wakes nobody.
  if (!deferred_.empty() || !backlog_.empty() || !frames_to_repost_.empty() || withdraw_deadline_)
    return false;
  return fabric_.try_wait();
}

}  // namespace ofi
}  // namespace halyard
