#include "transports/cuda_ipc/cuda_error.hpp"

namespace halyard::cuda_ipc {

std::string describe_cuda_error(cudaError_t status, std::string_view what) {
  return std::string(what) + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) +
         ")";
}

void check_cuda(cudaError_t status, std::string_view what) {
  if (status != cudaSuccess) throw Error(ErrorCode::kTransport, describe_cuda_error(status, what));
}

Status cuda_status(cudaError_t status, std::string_view what) {
  if (status == cudaSuccess) return Status{};
  return Status::failure(ErrorCode::kTransport, describe_cuda_error(status, what));
}

}  // namespace halyard::cuda_ipc
