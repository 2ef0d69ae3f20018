#include "collectives/select/device_path.hpp"

namespace halyard::select {

DevicePath choose_device_path(MemoryKind memory, const CommShape& shape) {
  if (memory == MemoryKind::kHost) return DevicePath::kHost;
  return shape.nodes <= 1 ? DevicePath::kNodeIpc : DevicePath::kStaged;
}

}  // namespace halyard::select
