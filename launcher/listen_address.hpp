// Which address hlaunch's bootstrap server listens on. Single-host jobs stay on loopback; a job
// across hosts needs an address every host can reach: --bootstrap-address names it (an IP
// address or an interface), otherwise the first non-loopback IPv4 address that is up is taken.
#pragma once

#include <string>

namespace halyard::launcher {

// `wanted`: "", an IPv4/IPv6 address, or an interface name ("eth0", "ib0"). `remote_hosts`:
// whether any rank runs beyond this host. Throws UsageError when `wanted` names neither an
// address nor an interface with an address, or when no usable address exists.
std::string choose_listen_address(const std::string& wanted, bool remote_hosts);

}  // namespace halyard::launcher
