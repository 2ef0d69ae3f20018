// Which local address the ofi endpoint should bind to when the provider offers one per
// interface (tcp, sockets, udp): the one the kernel uses to reach hlaunch's bootstrap server.
//
// The first interface fi_getinfo lists may be one the other hosts cannot reach (a docker bridge,
// a management port); the route to the bootstrap server is known to work from every host, so
// binding there makes the endpoint address that goes into the key-value store reachable too. On
// one host the server is on loopback and so is the data. FI_TCP_IFACE still overrides: it
// leaves fi_getinfo only the interface it names.
#pragma once

#include <string>

#include <rdma/fabric.h>

namespace halyard::ofi {

// The local IP address (text) of the route to `server` ("host:port", as in
// HALYARD_BOOTSTRAP_ADDR), or "" when it cannot be told. Sends nothing: it connects a UDP
// socket, which only looks up the route.
std::string source_address_towards(const std::string& server);

// Moves the candidates whose source address is `address` to the front of the list (keeping
// their order) and returns the new head; the list is unchanged when none matches or `address`
// is empty.
fi_info* prefer_source_address(fi_info* head, const std::string& address);

}  // namespace halyard::ofi
