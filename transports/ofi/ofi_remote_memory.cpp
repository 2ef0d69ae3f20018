#include "transports/ofi/ofi_remote_memory.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <string>

#include <rdma/fi_domain.h>
#include <rdma/fi_rma.h>

#include "runtime/support/log.hpp"

namespace halyard::ofi {
namespace {

class OfiRegion final : public RemoteMemory::Region {
 public:
  OfiRegion(fid_mr* region, RemoteRegionKey key) : region_(region), key_(key) {}
  ~OfiRegion() override { fi_close(&region_->fid); }
  RemoteRegionKey key() const override { return key_; }

 private:
  fid_mr* region_;
  RemoteRegionKey key_;
};

}  // namespace

void RmaTransfer::on_completion(OfiTransport& transport, const fi_cq_tagged_entry&,
                                const Status& result) {
  transport.remote_memory_engine().on_chunk_done(*this, result);
}

OfiRemoteMemory::~OfiRemoteMemory() = default;

std::unique_ptr<RemoteMemory::Region> OfiRemoteMemory::expose(void* base, std::size_t bytes) {
  const Fabric& fabric = transport_.fabric();
  const std::uint64_t requested_key = fabric.provider_keys() ? 0 : next_key_++;
  fid_mr* region = nullptr;
  const int rc = fi_mr_reg(fabric.domain(), base, bytes, FI_REMOTE_READ | FI_REMOTE_WRITE, 0,
                           requested_key, 0, &region, nullptr);
  if (rc != 0) {
    log::debug("ofi: fi_mr_reg of a window of {} bytes failed ({}); it is reached by messages",
               bytes, error_text(rc));
    return nullptr;
  }
  const std::uint64_t address =
      fabric.virtual_addressing() ? reinterpret_cast<std::uintptr_t>(base) : 0;
  return std::make_unique<OfiRegion>(region, RemoteRegionKey{address, fi_mr_key(region)});
}

void OfiRemoteMemory::write(int world_rank, const void* local, std::size_t bytes,
                            RemoteRegionKey remote, std::uint64_t offset, Completion done) {
  transfer(world_rank, const_cast<std::byte*>(static_cast<const std::byte*>(local)), bytes, remote,
           offset, std::move(done), true);
}

void OfiRemoteMemory::read(int world_rank, void* local, std::size_t bytes, RemoteRegionKey remote,
                           std::uint64_t offset, Completion done) {
  transfer(world_rank, static_cast<std::byte*>(local), bytes, remote, offset, std::move(done),
           false);
}

void OfiRemoteMemory::transfer(int world_rank, std::byte* local, std::size_t bytes,
                               RemoteRegionKey remote, std::uint64_t offset, Completion done,
                               bool write) {
  const std::size_t chunk = transport_.chunk_size();
  const std::size_t chunks = chunk_count(bytes, chunk);
  if (chunks == 0) {
    transport_.complete_later(std::move(done), Status{});
    return;
  }
  auto owned = std::make_unique<RmaTransfer>();
  RmaTransfer* state = owned.get();
  state->id = next_transfer_++;
  state->prepare_chunks(chunks);
  state->status.bytes = bytes;
  state->done = std::move(done);
  transfers_.emplace(state->id, std::move(owned));
  const fi_addr_t peer = transport_.address_of(world_rank);
  auto fail = [this, state, world_rank, write](ssize_t rc) {
    on_chunk_done(
        *state,
        Status::failure(ErrorCode::kTransport,
                        std::string("ofi: posting an RMA ") + (write ? "write to" : "read from") +
                            " rank " + std::to_string(world_rank) + " failed: " + error_text(rc)));
  };
  for (std::size_t i = 0; i < chunks; ++i) {
    const std::size_t at = i * chunk;
    const std::size_t length = std::min(chunk, bytes - at);
    void* context = &state->chunks[i].scratch;
    const std::uint64_t address = remote.address + offset + at;
    const std::uint64_t key = remote.key;
    std::byte* buffer = local + at;
    transport_.post(
        [this, write, buffer, length, peer, address, key, context]() -> ssize_t {
          if (!write) {
            return fi_read(transport_.endpoint(), buffer, length, nullptr, peer, address, key,
                           context);
          }
          // Delivery complete: the completion means the bytes are in the target's memory, which
          // a window's flush promises (transmit complete would only mean they left here).
          iovec iov{buffer, length};
          fi_rma_iov target{address, length, key};
          fi_msg_rma message{};
          message.msg_iov = &iov;
          message.iov_count = 1;
          message.addr = peer;
          message.rma_iov = &target;
          message.rma_iov_count = 1;
          message.context = context;
          return fi_writemsg(transport_.endpoint(), &message, FI_COMPLETION | FI_DELIVERY_COMPLETE);
        },
        fail, world_rank);
  }
}

void OfiRemoteMemory::on_chunk_done(RmaTransfer& transfer, const Status& status) {
  record_failure(transfer.status, status);
  if (--transfer.outstanding > 0) return;
  auto node = transfers_.extract(transfer.id);
  transport_.complete_later(std::move(node.mapped()->done), std::move(node.mapped()->status));
}

}  // namespace halyard::ofi
