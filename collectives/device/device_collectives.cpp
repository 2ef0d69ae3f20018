#include "collectives/device/device_collectives.hpp"

#include "collectives/base/arguments.hpp"
#include "collectives/device/node_operations.hpp"
#include "runtime/error.hpp"

namespace halyard::device {

namespace {

// The device support of `comm`, once the caller's earlier device work on the call's buffers
// has finished (DeviceSupport::wait_for_caller_work says why).
DeviceSupport& support_for_call(const Communicator& comm) {
  DeviceSupport* support = device_support_of(comm);
  if (support == nullptr) {
    throw Error(ErrorCode::kInternal, "a device collective was selected without DeviceSupport");
  }
  support->wait_for_caller_work();
  return *support;
}

// This rank's contribution: the receive buffer when the call is in place.
const void* input_of(const void* send, void* recv) {
  return base::is_in_place(send) ? recv : send;
}

}  // namespace

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root,
               select::DevicePath path) {
  DeviceSupport& device = support_for_call(comm);
  if (path == select::DevicePath::kStaged) {
    return ibcast_staged(comm, device, buffer, count, type, root);
  }
  NodeCopyPlan plan{root, all_but(comm, root), true, buffer, count * datatype_size(type)};
  return node_copy(comm, device, plan, "ibcast");
}

Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root, select::DevicePath path) {
  DeviceSupport& device = support_for_call(comm);
  const void* input = input_of(send, recv);
  if (path == select::DevicePath::kStaged) {
    return ireduce_staged(comm, device, input, recv, count, type, op, root);
  }
  return node_reduce(comm, device, root, {input, recv, count, type, op, "ireduce"});
}

Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, select::DevicePath path) {
  DeviceSupport& device = support_for_call(comm);
  const void* input = input_of(send, recv);
  if (path == select::DevicePath::kStaged) {
    return iallreduce_staged(comm, device, input, recv, count, type, op);
  }
  return node_allreduce(comm, device, {input, recv, count, type, op, "iallreduce"});
}

}  // namespace halyard::device
