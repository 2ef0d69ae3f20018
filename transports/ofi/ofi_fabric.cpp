#include "transports/ofi/ofi_fabric.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>

#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"
#include "transports/ofi/libfabric_library.hpp"
#include "transports/ofi/ofi_source_address.hpp"

namespace halyard::ofi {
namespace {

// Owns an fi_info list (fi_getinfo's result or hints).
struct InfoList {
  fi_info* head = nullptr;
  ~InfoList() {
    if (head != nullptr) libfabric().freeinfo(head);
  }
};

// What RMA a query asks for: reads (the rendezvous), writes too (windows), or none.
enum class RmaCaps { kNone, kRead, kReadWrite };

fi_info* make_hints(const std::optional<std::string>& provider, RmaCaps rma,
                    std::size_t inject_size) {
  fi_info* hints = libfabric().dupinfo(nullptr);  // fi_allocinfo()
  if (hints == nullptr) throw Error(ErrorCode::kInternal, "fi_allocinfo failed");
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = FI_TAGGED | FI_MSG;
  if (rma != RmaCaps::kNone) hints->caps |= FI_RMA | FI_READ | FI_REMOTE_READ;
  if (rma == RmaCaps::kReadWrite) hints->caps |= FI_WRITE | FI_REMOTE_WRITE;
  // Every operation context we pass starts with an fi_context2, so both modes are fine.
  hints->mode = FI_CONTEXT | FI_CONTEXT2;
  // Registration modes we can honour; FI_MR_LOCAL is not among them (we pass no descriptors).
  hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
  // One event loop thread drives each transport.
  hints->domain_attr->threading = FI_THREAD_DOMAIN;
  // Sends between a pair must arrive in order: the runtime matches in posting order.
  hints->tx_attr->msg_order = FI_ORDER_SAS;
  hints->rx_attr->msg_order = FI_ORDER_SAS;
  hints->tx_attr->inject_size = inject_size;
  if (provider) hints->fabric_attr->prov_name = strdup(provider->c_str());
  return hints;
}

// fi_getinfo with our hints; returns the list (possibly empty) and the return code.
int query(const std::optional<std::string>& provider, RmaCaps rma, std::size_t inject_size,
          InfoList& out) {
  InfoList hints{make_hints(provider, rma, inject_size)};
  return libfabric().getinfo(kLibfabricApiVersion, nullptr, nullptr, 0, hints.head, &out.head);
}

void check(int rc, const char* what) {
  if (rc != 0) throw Error(ErrorCode::kTransport, std::string(what) + " failed: " + error_text(rc));
}

}  // namespace

std::string error_text(long rc) {
  return libfabric().strerror(static_cast<int>(rc < 0 ? -rc : rc));
}

Fabric::Fabric(const std::optional<std::string>& provider, RmaPolicy rma, int address_count,
               bool want_wait_fd, const std::string& preferred_source) {
  InfoList candidates;
  int rc = -FI_ENODATA;
  // Reads and writes where the provider has both, else reads only, else (unless RMA is
  // required) none: each tier keeps what the one above it has but writes.
  RmaCaps caps = RmaCaps::kNone;
  if (rma != RmaPolicy::kOff) {
    for (RmaCaps tier : {RmaCaps::kReadWrite, RmaCaps::kRead}) {
      rc = query(provider, tier, 0, candidates);
      if (rc != -FI_ENODATA) {
        caps = tier;
        break;
      }
    }
  }
  if (rc == -FI_ENODATA && rma != RmaPolicy::kOn) {
    caps = RmaCaps::kNone;
    rc = query(provider, caps, 0, candidates);
  }
  if (rc != 0 || candidates.head == nullptr) {
    std::string what = provider ? "HALYARD_OFI_PROVIDER='" + *provider +
                                      "': libfabric offers no provider of that name"
                                : "libfabric offers no provider";
    what += " with RDM endpoints and tagged messages";
    if (rma == RmaPolicy::kOn) what += " and RMA reads (HALYARD_OFI_RMA=on)";
    throw Error(ErrorCode::kUnsupported, what + " (fi_getinfo: " + error_text(rc) + ")");
  }

  // Ask the chosen provider for a larger inject size: small frames then leave with fi_tinject,
  // with no completion to wait for. Asked of the chosen provider only, so that the wish does
  // not change which provider is "the first suitable".
  {
    const std::string chosen = candidates.head->fabric_attr->prov_name;
    InfoList with_inject;
    // The name matches layered providers too ("net" also finds "net;ofi_rxm"), so the answer
    // counts only when it names the chosen provider exactly.
    if (query(chosen, caps, kMaxInjectSize, with_inject) == 0 && with_inject.head != nullptr &&
        chosen == with_inject.head->fabric_attr->prov_name) {
      std::swap(candidates.head, with_inject.head);
    }
  }

  candidates.head = prefer_source_address(candidates.head, preferred_source);
  // The first candidate that opens wins; a later one may work where an earlier fails (an
  // interface that is down, a provider without a usable device).
  std::string last_failure;
  for (fi_info* candidate = candidates.head; candidate != nullptr; candidate = candidate->next) {
    try {
      info_ = libfabric().dupinfo(candidate);
      check(libfabric().fabric(info_->fabric_attr, &fabric_, nullptr), "fi_fabric");
      check(fi_domain(fabric_, info_, &domain_, nullptr), "fi_domain");

      fi_av_attr av_attr{};
      av_attr.type = FI_AV_TABLE;
      av_attr.count = static_cast<std::size_t>(address_count);
      check(fi_av_open(domain_, &av_attr, &av_, nullptr), "fi_av_open");

      fi_cq_attr cq_attr{};
      cq_attr.format = FI_CQ_FORMAT_TAGGED;
      cq_attr.wait_obj = want_wait_fd ? FI_WAIT_FD : FI_WAIT_NONE;
      if (!want_wait_fd || fi_cq_open(domain_, &cq_attr, &cq_, nullptr) != 0) {
        // No fd to sleep on: the event loop then spins or yields for this transport.
        cq_attr.wait_obj = FI_WAIT_NONE;
        check(fi_cq_open(domain_, &cq_attr, &cq_, nullptr), "fi_cq_open");
      } else if (fi_control(&cq_->fid, FI_GETWAIT, &wait_fd_) != 0) {
        wait_fd_ = -1;
      }

      check(fi_endpoint(domain_, info_, &endpoint_, nullptr), "fi_endpoint");
      check(fi_ep_bind(endpoint_, &av_->fid, 0), "fi_ep_bind(av)");
      check(fi_ep_bind(endpoint_, &cq_->fid, FI_TRANSMIT | FI_RECV), "fi_ep_bind(cq)");
      check(fi_enable(endpoint_), "fi_enable");
      break;
    } catch (const Error& e) {
      last_failure = e.what();
      log::debug("ofi: provider {} on {} did not open: {}", candidate->fabric_attr->prov_name,
                 candidate->domain_attr->name, last_failure);
      close_all();
    }
  }
  if (endpoint_ == nullptr) {
    throw Error(ErrorCode::kTransport,
                "no libfabric provider" +
                    (provider ? " named '" + *provider + "'" : std::string()) +
                    " could be opened: " + last_failure);
  }

  has_rma_ = (info_->caps & FI_RMA) != 0 && (info_->caps & FI_READ) != 0;
  has_rma_write_ = has_rma_ && (info_->caps & FI_WRITE) != 0 &&
                   (info_->caps & FI_REMOTE_WRITE) != 0 && (info_->caps & FI_REMOTE_READ) != 0;
  virtual_addressing_ = (info_->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
  provider_keys_ = (info_->domain_attr->mr_mode & FI_MR_PROV_KEY) != 0;
  max_message_size_ = info_->ep_attr->max_msg_size;
  iov_limit_ = info_->tx_attr->iov_limit;
  inject_size_ = std::min(info_->tx_attr->inject_size, kMaxInjectSize);
  log::debug(
      "ofi: provider {} domain {} rma={} rma_write={} wait_fd={} max_msg_size={} inject_size={}",
      provider_name(), info_->domain_attr->name, has_rma_, has_rma_write_, wait_fd_,
      max_message_size_, inject_size_);
}

Fabric::~Fabric() {
  close_all();
}

void Fabric::close_endpoint() noexcept {
  if (endpoint_ != nullptr) fi_close(&endpoint_->fid);
  endpoint_ = nullptr;
}

void Fabric::close_all() noexcept {
  // Reverse order of opening: the endpoint references the AV and CQ, all reference the domain.
  close_endpoint();
  if (cq_ != nullptr) fi_close(&cq_->fid);
  if (av_ != nullptr) fi_close(&av_->fid);
  if (domain_ != nullptr) fi_close(&domain_->fid);
  if (fabric_ != nullptr) fi_close(&fabric_->fid);
  if (info_ != nullptr) libfabric().freeinfo(info_);
  endpoint_ = nullptr;
  cq_ = nullptr;
  av_ = nullptr;
  domain_ = nullptr;
  fabric_ = nullptr;
  info_ = nullptr;
  wait_fd_ = -1;
}

std::string Fabric::provider_name() const {
  return info_->fabric_attr->prov_name;
}

std::string Fabric::local_name() const {
  std::vector<char> name(256);
  std::size_t length = name.size();
  int rc = fi_getname(&endpoint_->fid, name.data(), &length);
  if (rc == -FI_ETOOSMALL) {
    name.resize(length);
    rc = fi_getname(&endpoint_->fid, name.data(), &length);
  }
  check(rc, "fi_getname");
  return std::string(name.data(), length);
}

fi_addr_t Fabric::insert_address(const std::string& raw_name) {
  fi_addr_t address = FI_ADDR_UNSPEC;
  int inserted = fi_av_insert(av_, raw_name.data(), 1, &address, 0, nullptr);
  if (inserted != 1) {
    throw Error(ErrorCode::kTransport,
                "fi_av_insert failed: " +
                    (inserted < 0 ? error_text(inserted) : std::string("address rejected")));
  }
  return address;
}

bool Fabric::try_wait() {
  if (wait_fd_ < 0) return false;
  fid* fids[] = {&cq_->fid};
  return fi_trywait(fabric_, fids, 1) == FI_SUCCESS;
}

std::string Fabric::completion_error_text(const fi_cq_err_entry& entry) const {
  char buffer[256] = {};
  const char* text = fi_cq_strerror(cq_, entry.prov_errno, entry.err_data, buffer, sizeof buffer);
  std::string message = error_text(entry.err);
  if (text != nullptr && *text != '\0') message += std::string(" (") + text + ")";
  return message;
}

}  // namespace halyard::ofi
