#include "launcher/listen_address.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <boost/asio/ip/address.hpp>

#include "launcher/usage_error.hpp"

namespace halyard::launcher {
namespace {

struct IfAddrs {
  ifaddrs* head = nullptr;
  IfAddrs() {
    if (::getifaddrs(&head) != 0) head = nullptr;
  }
  ~IfAddrs() {
    if (head != nullptr) ::freeifaddrs(head);
  }
};

std::string text_of(const sockaddr* addr) {
  char text[INET6_ADDRSTRLEN] = {};
  if (addr->sa_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(addr)->sin_addr, text, sizeof text);
  } else {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr, text,
                sizeof text);
  }
  return text;
}

// The first address of `family` that is up and passes `accept`.
template <typename Accept>
std::string find_address(int family, Accept accept) {
  IfAddrs list;
  for (ifaddrs* a = list.head; a != nullptr; a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != family) continue;
    if ((a->ifa_flags & IFF_UP) == 0) continue;
    if (accept(*a)) return text_of(a->ifa_addr);
  }
  return {};
}

}  // namespace

std::string choose_listen_address(const std::string& wanted, bool remote_hosts) {
  if (wanted.empty()) {
    if (!remote_hosts) return "127.0.0.1";
    std::string found =
        find_address(AF_INET, [](const ifaddrs& a) { return (a.ifa_flags & IFF_LOOPBACK) == 0; });
    if (found.empty()) {
      throw UsageError(
          "this host has no non-loopback IPv4 address for the bootstrap server; name one with "
          "--bootstrap-address");
    }
    return found;
  }
  boost::system::error_code ec;
  auto address = boost::asio::ip::make_address(wanted, ec);
  if (!ec) return address.to_string();
  for (int family : {AF_INET, AF_INET6}) {
    std::string found =
        find_address(family, [&](const ifaddrs& a) { return wanted == a.ifa_name; });
    if (!found.empty()) return found;
  }
  throw UsageError("--bootstrap-address '" + wanted +
                   "' is neither an IP address nor an interface of this host that is up and has "
                   "an address");
}

}  // namespace halyard::launcher
