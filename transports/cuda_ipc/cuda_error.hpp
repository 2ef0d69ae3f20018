// Turning CUDA runtime errors into halyard::Error / Status, naming what failed.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <string_view>

#include "runtime/support/error.hpp"

namespace halyard::cuda_ipc {

// "what: cudaErrorInvalidValue (invalid argument)".
std::string describe_cuda_error(cudaError_t status, std::string_view what);

// Throws Error(kTransport) unless `status` is cudaSuccess.
void check_cuda(cudaError_t status, std::string_view what);

// A failed Status (kTransport) describing `status`; ok for cudaSuccess.
Status cuda_status(cudaError_t status, std::string_view what);

}  // namespace halyard::cuda_ipc
