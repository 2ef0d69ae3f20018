// The ofi transport's RemoteMemory (runtime/remote_memory.hpp): windows' memory registered for
// remote reads and writes (fi_mr_reg), written with fi_writemsg(FI_DELIVERY_COMPLETE), so that
// a completion means the bytes are in the target's memory, and read with fi_read. Transfers
// larger than the transport's chunk move in chunks, as the rendezvous does.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "runtime/remote_memory.hpp"
#include "transports/ofi/ofi_transport_impl.hpp"

namespace halyard::ofi {

// One write or read in flight, in chunks.
struct RmaTransfer final : ChunkedTransfer {
  void on_completion(OfiTransport& transport, const fi_cq_tagged_entry& entry,
                     const Status& status) override;
};

class OfiRemoteMemory final : public RemoteMemory {
 public:
  explicit OfiRemoteMemory(OfiTransport& transport) : transport_(transport) {}
  ~OfiRemoteMemory() override;

  std::unique_ptr<Region> expose(void* base, std::size_t bytes) override;
  void write(int world_rank, const void* local, std::size_t bytes, RemoteRegionKey remote,
             std::uint64_t offset, Completion done) override;
  void read(int world_rank, void* local, std::size_t bytes, RemoteRegionKey remote,
            std::uint64_t offset, Completion done) override;

  void on_chunk_done(RmaTransfer& transfer, const Status& status);

 private:
  void transfer(int world_rank, std::byte* local, std::size_t bytes, RemoteRegionKey remote,
                std::uint64_t offset, Completion done, bool write);

  OfiTransport& transport_;
  std::unordered_map<std::uint64_t, std::unique_ptr<RmaTransfer>> transfers_;
  std::uint64_t next_transfer_ = 1;
  // Keys this transport chooses when the provider does not (FI_MR_PROV_KEY unset): above the
  // rendezvous' keys (its send ids), unique in the domain.
  std::uint64_t next_key_ = std::uint64_t{1} << 40;
};

}  // namespace halyard::ofi
