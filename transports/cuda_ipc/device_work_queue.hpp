// DeviceWorkQueue: asynchronous device work (copies, reduction kernels) on a small pool of
// CUDA streams, each piece followed by an event; progress() polls the events from the event
// loop and completes the matching Requests. Nothing ever waits on a stream, so device work
// overlaps the messages of the collectives that posted it (ADAPT section 4.1).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "runtime/request.hpp"

namespace halyard {
class EventLoop;
}

namespace halyard::cuda_ipc {

class DeviceWorkQueue {
 public:
  // Streams are made by the first start(), on the rank's device: the device of the first device
  // buffer (start(device)), else the device current at that moment.
  explicit DeviceWorkQueue(EventLoop& loop, std::size_t streams = 4);
  ~DeviceWorkQueue();
  DeviceWorkQueue(const DeviceWorkQueue&) = delete;
  DeviceWorkQueue& operator=(const DeviceWorkQueue&) = delete;

  // The device the streams live on (made on first use); -1 before.
  int device() const { return device_; }
  // Creates the streams if needed, on `device` (-1: the calling thread's current device), and
  // binds the calling thread to the queue's device for the CUDA calls it makes until the next
  // call into the queue. Throws Error(kTransport) when CUDA refuses.
  void start(int device = -1);

  // Makes the queue's device current on the calling thread for its lifetime and restores the
  // thread's previous device after. Every method below that calls CUDA holds one: work issued
  // from another thread (the progress thread, an application thread) would otherwise land on
  // that thread's current device, device 0 unless it chose one (events, kernels, IPC mappings).
  class DeviceScope {
   public:
    explicit DeviceScope(int device);
    ~DeviceScope();
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

   private:
    int previous_ = -1;
  };

  // Runs `enqueue(stream)` (which enqueues the work and returns the launch's status) on the
  // next stream of the pool and returns a Request that completes once the work is done. A
  // launch failure completes the request at once with the error, naming `what`.
  Request submit(const std::string& what, const std::function<cudaError_t(cudaStream_t)>& enqueue);

  // Blocks until the work issued so far to the calling thread's default streams (legacy and
  // per-thread) has finished: an event recorded there waits, as every legacy-stream operation
  // does, for the blocking streams' earlier work too. Throws Error(kTransport) when CUDA fails.
  void wait_for_default_streams();

  // Completes the requests whose events fired; returns how many.
  int progress();
  bool idle() const { return in_flight_.empty(); }

 private:
  struct InFlight {
    cudaEvent_t event;
    Request request;
    std::string what;
  };
  cudaEvent_t take_event();

  EventLoop& loop_;
  std::size_t stream_count_;
  int device_ = -1;
  std::vector<cudaStream_t> streams_;
  std::size_t next_stream_ = 0;
  std::vector<cudaEvent_t> free_events_;
  std::deque<InFlight> in_flight_;
};

}  // namespace halyard::cuda_ipc
