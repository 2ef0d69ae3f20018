// make_device_support() of a build without CUDA (HALYARD_CUDA=OFF, or no toolkit found): there
// is no device support, so every buffer is host memory and nothing links or loads CUDA.
#include "runtime/device_support.hpp"

namespace halyard {

std::unique_ptr<DeviceSupport> make_device_support(EventLoop& /*loop*/) {
  return nullptr;
}

}  // namespace halyard
