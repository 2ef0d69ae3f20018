// The libfabric objects one rank needs (fabric, domain, address vector, completion queue, RDM
// endpoint), opened in the right order and closed in reverse. Provider selection lives here so
// the transport above only posts operations and reads completions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>

namespace halyard::ofi {

enum class RmaPolicy { kAuto, kOn, kOff };

// Frames up to this size (header included) go out with fi_tinject when the provider allows it.
inline constexpr std::size_t kMaxInjectSize = 2048;

// libfabric's text for a negative return code, e.g. "Resource temporarily unavailable".
std::string error_text(long rc);

class Fabric {
 public:
  // `provider` is a libfabric provider name ("tcp;ofi_rxm", "sockets"); nullopt takes the first
  // suitable one. `want_wait_fd` asks for a CQ with FI_WAIT_FD (skipped when the event loop
  // never sleeps: signalling the fd costs a system call per completion). Throws Error(kUnsupported)
  // naming the provider when none fits, and Error(kTransport) with libfabric's message when opening
  // an object fails.
  // `preferred_source`: a local IP address; candidates bound to it are tried first
  // (ofi_source_address.hpp).
  Fabric(const std::optional<std::string>& provider, RmaPolicy rma, int address_count,
         bool want_wait_fd, const std::string& preferred_source = {});
  ~Fabric();
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  fid_ep* endpoint() const { return endpoint_; }
  fid_cq* completion_queue() const { return cq_; }
  fid_domain* domain() const { return domain_; }

  std::string provider_name() const;
  // FI_RMA reads are available: rendezvous data can be pulled with fi_read.
  bool has_rma() const { return has_rma_; }
  // RMA writes and remote reads and writes too: windows may be reached one-sidedly.
  bool has_rma_write() const { return has_rma_write_; }
  // Remote addresses are virtual addresses (FI_MR_VIRT_ADDR), else offsets into the region.
  bool virtual_addressing() const { return virtual_addressing_; }
  // The provider picks memory-region keys (FI_MR_PROV_KEY); else we must choose unique ones.
  bool provider_keys() const { return provider_keys_; }
  // Largest payload of one send, receive or read.
  std::size_t max_message_size() const { return max_message_size_; }
  // Largest message fi_tinject takes (capped at what we asked for).
  std::size_t inject_size() const { return inject_size_; }
  // Most iovecs one send may gather.
  std::size_t iov_limit() const { return iov_limit_; }

  // This endpoint's address as raw bytes (fi_getname).
  std::string local_name() const;
  // Inserts a peer's raw address into the AV and returns its fi_addr_t.
  fi_addr_t insert_address(const std::string& raw_name);

  // The CQ's wait fd (FI_WAIT_FD via fi_control FI_GETWAIT), or -1 when the provider has none.
  int wait_fd() const { return wait_fd_; }
  // fi_trywait on the CQ: true when it is safe to sleep on wait_fd().
  bool try_wait();

  // libfabric's description of a failed completion (fi_cq_strerror).
  std::string completion_error_text(const fi_cq_err_entry& entry) const;

  // Closes the endpoint first, so no operation still writes into buffers the caller is about
  // to free; the other objects close with the Fabric.
  void close_endpoint() noexcept;

 private:
  void close_all() noexcept;

  fi_info* info_ = nullptr;
  fid_fabric* fabric_ = nullptr;
  fid_domain* domain_ = nullptr;
  fid_av* av_ = nullptr;
  fid_cq* cq_ = nullptr;
  fid_ep* endpoint_ = nullptr;
  int wait_fd_ = -1;
  bool has_rma_ = false;
  bool has_rma_write_ = false;
  bool virtual_addressing_ = false;
  bool provider_keys_ = false;
  std::size_t max_message_size_ = 0;
  std::size_t iov_limit_ = 1;
  std::size_t inject_size_ = 0;
};

}  // namespace halyard::ofi
