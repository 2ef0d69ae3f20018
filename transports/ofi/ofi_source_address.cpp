#include "transports/ofi/ofi_source_address.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

namespace halyard::ofi {
namespace {

std::string text_of(const sockaddr* addr) {
  char text[INET6_ADDRSTRLEN] = {};
  if (addr->sa_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(addr)->sin_addr, text, sizeof text);
  } else if (addr->sa_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr, text,
                sizeof text);
  }
  return text;
}

std::string source_of(const fi_info& info) {
  if (info.src_addr == nullptr) return {};
  if (info.addr_format != FI_SOCKADDR_IN && info.addr_format != FI_SOCKADDR_IN6 &&
      info.addr_format != FI_SOCKADDR) {
    return {};
  }
  return text_of(static_cast<const sockaddr*>(info.src_addr));
}

}  // namespace

std::string source_address_towards(const std::string& server) {
  auto colon = server.rfind(':');
  if (colon == std::string::npos || colon == 0) return {};
  std::string host = server.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), server.substr(colon + 1).c_str(), &hints, &found) != 0) return {};
  std::string local;
  int fd = ::socket(found->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) == 0) {
    sockaddr_storage mine{};
    socklen_t length = sizeof mine;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&mine), &length) == 0) {
      local = text_of(reinterpret_cast<const sockaddr*>(&mine));
    }
  }
  if (fd >= 0) ::close(fd);
  ::freeaddrinfo(found);
  return local;
}

fi_info* prefer_source_address(fi_info* head, const std::string& address) {
  if (address.empty()) return head;
  std::vector<fi_info*> matching;
  std::vector<fi_info*> others;
  for (fi_info* i = head; i != nullptr; i = i->next) {
    (source_of(*i) == address ? matching : others).push_back(i);
  }
  if (matching.empty()) return head;
  matching.insert(matching.end(), others.begin(), others.end());
  for (std::size_t k = 0; k + 1 < matching.size(); ++k) matching[k]->next = matching[k + 1];
  matching.back()->next = nullptr;
  return matching.front();
}

}  // namespace halyard::ofi
