#include "transports/cuda_ipc/device_work_queue.hpp"

#include <optional>
#include <string>
#include <utility>

#include "runtime/support/log.hpp"
#include "transports/cuda_ipc/cuda_error.hpp"

namespace halyard::cuda_ipc {

DeviceWorkQueue::DeviceWorkQueue(EventLoop& loop, std::size_t streams)
    : loop_(loop), stream_count_(streams == 0 ? 1 : streams) {}

DeviceWorkQueue::DeviceScope::DeviceScope(int device) {
  if (device < 0) return;
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess) (void)cudaGetLastError();
  if (current == device) return;
  check_cuda(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  previous_ = current;
}

DeviceWorkQueue::DeviceScope::~DeviceScope() {
  if (previous_ >= 0 && cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
}

DeviceWorkQueue::~DeviceWorkQueue() {
  // Teardown: the runtime finished every collective, but a failed one may have left work on a
  // stream; wait for it so no copy lands in memory that is about to be freed.
  std::optional<DeviceScope> scope;
  try {
    if (!streams_.empty()) scope.emplace(device_);
  } catch (const Error&) {
    (void)cudaGetLastError();
  }
  for (cudaStream_t s : streams_) {
    if (cudaStreamSynchronize(s) != cudaSuccess) (void)cudaGetLastError();
    (void)cudaStreamDestroy(s);
  }
  for (auto& f : in_flight_) {
    (void)cudaEventDestroy(f.event);
    f.request.complete(Status::failure(ErrorCode::kCancelled, f.what + ": runtime shut down"));
  }
  for (cudaEvent_t e : free_events_) (void)cudaEventDestroy(e);
}

void DeviceWorkQueue::start(int device) {
  if (!streams_.empty()) return;
  if (device < 0) check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  DeviceScope scope(device);
  std::vector<cudaStream_t> streams;
  for (std::size_t i = 0; i < stream_count_; ++i) {
    cudaStream_t s = nullptr;
    cudaError_t status = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (status != cudaSuccess) {
      for (cudaStream_t made : streams) (void)cudaStreamDestroy(made);
      check_cuda(status, "cudaStreamCreateWithFlags");
    }
    streams.push_back(s);
  }
  streams_ = std::move(streams);
  device_ = device;
  log::debug("cuda_ipc: {} streams on device {}", streams_.size(), device_);
}

cudaEvent_t DeviceWorkQueue::take_event() {
  if (!free_events_.empty()) {
    cudaEvent_t e = free_events_.back();
    free_events_.pop_back();
    return e;
  }
  cudaEvent_t e = nullptr;
  check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  return e;
}

void DeviceWorkQueue::wait_for_default_streams() {
  start();
  // The caller's default streams of the rank's device, whatever device its thread has current.
  DeviceScope scope(device_);
  cudaEvent_t event = take_event();
  for (cudaStream_t stream : {cudaStreamLegacy, cudaStreamPerThread}) {
    cudaError_t status = cudaEventRecord(event, stream);
    if (status == cudaSuccess) status = cudaEventSynchronize(event);
    if (status != cudaSuccess) {
      free_events_.push_back(event);
      check_cuda(status, "waiting for the caller's earlier device work (default stream)");
    }
  }
  free_events_.push_back(event);
}

Request DeviceWorkQueue::submit(const std::string& what,
                                const std::function<cudaError_t(cudaStream_t)>& enqueue) {
  start();
  DeviceScope scope(device_);
  cudaStream_t stream = streams_[next_stream_];
  next_stream_ = (next_stream_ + 1) % streams_.size();
  cudaError_t status = enqueue(stream);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // clear a launch error so that later launches are not blamed
    return Request::make_completed(loop_, cuda_status(status, what));
  }
  cudaEvent_t event = take_event();
  status = cudaEventRecord(event, stream);
  if (status != cudaSuccess) {
    free_events_.push_back(event);
    return Request::make_completed(loop_, cuda_status(status, what + ": cudaEventRecord"));
  }
  Request request = Request::make_pending(loop_);
  in_flight_.push_back({event, request, what});
  return request;
}

int DeviceWorkQueue::progress() {
  if (in_flight_.empty()) return 0;  // the common case: no CUDA call at all
  DeviceScope scope(device_);
  int done = 0;
  // Work on different streams may finish in any order: look at every event.
  for (auto it = in_flight_.begin(); it != in_flight_.end();) {
    cudaError_t status = cudaEventQuery(it->event);
    if (status == cudaErrorNotReady) {
      ++it;
      continue;
    }
    Status result = cuda_status(status, it->what);
    if (status != cudaSuccess) (void)cudaGetLastError();
    free_events_.push_back(it->event);
    Request request = std::move(it->request);
    it = in_flight_.erase(it);
    request.complete(std::move(result));
    ++done;
  }
  return done;
}

}  // namespace halyard::cuda_ipc
