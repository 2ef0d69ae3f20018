#include "runtime/transport_registry.hpp"

#include <string>

#include "runtime/device_support.hpp"
#include "runtime/support/error.hpp"

namespace halyard {

std::string_view transport_kind_name(TransportKind kind) {
  switch (kind) {
    case TransportKind::kSelf:
      return "self";
    case TransportKind::kShm:
      return "shm";
    case TransportKind::kOfi:
      return "ofi";
  }
  return "unknown";
}

void TransportRegistry::add(TransportKind kind, MakeTransport factory) {
  transports_[static_cast<std::size_t>(kind)] = factory;
}

void TransportRegistry::add_device_support(MakeDeviceSupport factory) {
  device_support_ = factory;
}

bool TransportRegistry::has(TransportKind kind) const {
  return transports_[static_cast<std::size_t>(kind)] != nullptr;
}

std::unique_ptr<Transport> TransportRegistry::make(TransportKind kind,
                                                   const TransportSettings& settings) const {
  MakeTransport factory = transports_[static_cast<std::size_t>(kind)];
  if (factory == nullptr) {
    throw Error(ErrorCode::kUnsupported, "this build of Halyard has no " +
                                             std::string(transport_kind_name(kind)) + " transport");
  }
  return factory(settings);
}

std::unique_ptr<DeviceSupport> TransportRegistry::make_device_support(EventLoop& loop) const {
  return device_support_ != nullptr ? device_support_(loop) : nullptr;
}

const TransportRegistry& TransportRegistry::builtin() {
  static const TransportRegistry registry = [] {
    TransportRegistry r;
    register_builtin_transports(r);
    return r;
  }();
  return registry;
}

}  // namespace halyard
