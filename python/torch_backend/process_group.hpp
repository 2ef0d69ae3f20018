// ProcessGroupHalyard: torch.distributed's c10d::ProcessGroup (torch 1.13) on Halyard's
// collectives. Each call checks its CPU tensors, posts Halyard's non-blocking collective and
// returns a HalyardWork that Halyard's progress thread completes: async_op=True returns at
// once, and the Work's future (what DistributedDataParallel waits on) completes by itself.
//
// One Runtime serves every group of the process: the first group made (torch's default group,
// all ranks) starts it through torch's Store (store_bootstrap.hpp); later groups are subsets of
// its world, their members found through the group's store.
#pragma once

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

#include <functional>
#include <memory>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/runtime.hpp"

namespace halyard::torch_backend {

class ProcessGroupHalyard final : public c10d::ProcessGroup {
 public:
  // Collective over the group's `size` ranks.
  ProcessGroupHalyard(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size);
  ~ProcessGroupHalyard() override;

  const std::string getBackendName() const override { return "halyard"; }

  c10::intrusive_ptr<c10d::Work> broadcast(std::vector<at::Tensor>& tensors,
                                           const c10d::BroadcastOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> allreduce(std::vector<at::Tensor>& tensors,
                                           const c10d::AllreduceOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> reduce(std::vector<at::Tensor>& tensors,
                                        const c10d::ReduceOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> allgather(std::vector<std::vector<at::Tensor>>& outputs,
                                           std::vector<at::Tensor>& inputs,
                                           const c10d::AllgatherOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> _allgather_base(at::Tensor& output, at::Tensor& input,
                                                 const c10d::AllgatherOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> gather(std::vector<std::vector<at::Tensor>>& outputs,
                                        std::vector<at::Tensor>& inputs,
                                        const c10d::GatherOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> scatter(std::vector<at::Tensor>& outputs,
                                         std::vector<std::vector<at::Tensor>>& inputs,
                                         const c10d::ScatterOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> reduce_scatter(std::vector<at::Tensor>& outputs,
                                                std::vector<std::vector<at::Tensor>>& inputs,
                                                const c10d::ReduceScatterOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> _reduce_scatter_base(
      at::Tensor& output, at::Tensor& input, const c10d::ReduceScatterOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> alltoall_base(at::Tensor& output, at::Tensor& input,
                                               std::vector<int64_t>& output_splits,
                                               std::vector<int64_t>& input_splits,
                                               const c10d::AllToAllOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> alltoall(std::vector<at::Tensor>& outputs,
                                          std::vector<at::Tensor>& inputs,
                                          const c10d::AllToAllOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> barrier(const c10d::BarrierOptions& opts) override;
  c10::intrusive_ptr<c10d::Work> send(std::vector<at::Tensor>& tensors, int dst, int tag) override;
  c10::intrusive_ptr<c10d::Work> recv(std::vector<at::Tensor>& tensors, int src, int tag) override;

 private:
  c10::intrusive_ptr<c10d::Work> alltoall_rows(at::Tensor& output, at::Tensor& input,
                                               const std::vector<int64_t>& output_splits,
                                               const std::vector<int64_t>& input_splits,
                                               std::vector<at::Tensor> results,
                                               std::function<void()> unpack);

  std::shared_ptr<Runtime> runtime_;  // before comm_: the communicator goes first
  Communicator comm_;
};

// Finalizes the process's Runtime (halyard.torch's atexit: torch keeps its groups to the end).
void finalize_process_runtime();

}  // namespace halyard::torch_backend
