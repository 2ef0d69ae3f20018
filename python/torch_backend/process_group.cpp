#include "process_group.hpp"

#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "collectives/collectives.hpp"
#include "halyard_work.hpp"
#include "runtime/router.hpp"  // RuntimeParts holds the Router
#include "store_bootstrap.hpp"

namespace halyard::torch_backend {

namespace {

using WorkPtr = c10::intrusive_ptr<c10d::Work>;

// The process's Runtime, shared by every group (torch makes one object per group).
std::mutex runtime_mutex;
std::shared_ptr<Runtime> process_runtime;

Datatype reduction_type(const at::Tensor& t) {
  switch (t.scalar_type()) {
    case at::kChar:
      return Datatype::kInt8;
    case at::kByte:
      return Datatype::kUint8;
    case at::kShort:
      return Datatype::kInt16;
    case at::kInt:
      return Datatype::kInt32;
    case at::kLong:
      return Datatype::kInt64;
    case at::kHalf:
      return Datatype::kFloat16;
    case at::kBFloat16:
      return Datatype::kBFloat16;
    case at::kFloat:
      return Datatype::kFloat32;
    case at::kDouble:
      return Datatype::kFloat64;
    default:
      TORCH_CHECK(false, "halyard backend: reductions do not take ", t.scalar_type(),
                  " tensors (int8..int64, uint8, float16, bfloat16, float32, float64)");
  }
}

Op reduction_op(const c10d::ReduceOp& op) {
  switch (op.op_) {
    case c10d::ReduceOp::SUM:
      return Op::kSum;
    case c10d::ReduceOp::PRODUCT:
      return Op::kProd;
    case c10d::ReduceOp::MIN:
      return Op::kMin;
    case c10d::ReduceOp::MAX:
      return Op::kMax;
    case c10d::ReduceOp::BAND:
      return Op::kBand;
    case c10d::ReduceOp::BOR:
      return Op::kBor;
    case c10d::ReduceOp::BXOR:
      return Op::kBxor;
    default:
      TORCH_CHECK(false, "halyard backend: reduce op ", static_cast<int>(op.op_),
                  " is not supported (SUM, PRODUCT, MIN, MAX, BAND, BOR, BXOR)");
  }
}

void check_tensor(const at::Tensor& t, const char* call) {
  TORCH_CHECK(t.device().is_cpu(), "halyard backend: ", call, " takes CPU tensors, not ",
              t.device());
  TORCH_CHECK(t.layout() == at::kStrided && t.is_contiguous(), "halyard backend: ", call,
              " takes dense contiguous tensors");
}

at::Tensor& single(std::vector<at::Tensor>& tensors, const char* call) {
  TORCH_CHECK(tensors.size() == 1, "halyard backend: ", call, " takes one tensor per rank, got ",
              tensors.size());
  check_tensor(tensors[0], call);
  return tensors[0];
}

// `list` holds `count` tensors shaped like `like` (same dtype and element count).
void check_list(const std::vector<at::Tensor>& list, std::size_t count, const at::Tensor& like,
                const char* call) {
  TORCH_CHECK(list.size() == count, "halyard backend: ", call, " needs ", count,
              " tensors in the list, got ", list.size());
  for (const at::Tensor& t : list) {
    check_tensor(t, call);
    TORCH_CHECK(t.scalar_type() == like.scalar_type() && t.numel() == like.numel(),
                "halyard backend: ", call, ": every tensor in the list must match the ",
                like.scalar_type(), " tensor of ", like.numel(), " elements");
  }
}

// One contiguous tensor holding `list`'s tensors one after another (packed on this thread).
at::Tensor packed(const std::vector<at::Tensor>& list) {
  std::vector<at::Tensor> flat;
  for (const at::Tensor& t : list) flat.push_back(t.reshape({-1}));
  return at::cat(flat);
}

// Copies consecutive pieces of `flat` into `list` (from the completion, on the progress thread).
std::function<void()> unpacker(at::Tensor flat, std::vector<at::Tensor> list) {
  return [flat = std::move(flat), list = std::move(list)]() mutable {
    std::int64_t offset = 0;
    for (at::Tensor& t : list) {
      t.copy_(flat.narrow(0, offset, t.numel()).view_as(t));
      offset += t.numel();
    }
  };
}

WorkPtr post(c10d::OpType type, std::vector<at::Tensor> outputs, Staging staging,
             const std::function<Request()>& start) {
  auto work = c10::make_intrusive<HalyardWork>(type, std::move(outputs), std::move(staging));
  work->follow(start());
  return work;
}

void* data(const at::Tensor& t) {
  return t.data_ptr();
}

}  // namespace

HalyardWork::HalyardWork(c10d::OpType type, std::vector<at::Tensor> outputs, Staging staging)
    : Work(-1, type),
      outputs_(std::move(outputs)),
      staging_(std::move(staging)),
      future_(
          c10::make_intrusive<c10::ivalue::Future>(c10::ListType::create(c10::TensorType::get()))) {
}

void HalyardWork::follow(const Request& request) {
  request.on_complete([self = c10::intrusive_ptr<HalyardWork>::reclaim_copy(this)](
                          const Status& status) { self->complete(status); });
}

void HalyardWork::complete(const Status& status) {
  std::exception_ptr error;
  if (status.code != ErrorCode::kSuccess) {
    error = std::make_exception_ptr(std::runtime_error("halyard backend: " + status.message));
  } else if (staging_.unpack) {
    try {
      staging_.unpack();
    } catch (...) {
      error = std::current_exception();
    }
  }
  staging_ = {};
  finish(error);
  if (error) {
    future_->setError(error);
  } else {
    future_->markCompleted(c10::IValue(outputs_));
  }
}

ProcessGroupHalyard::ProcessGroupHalyard(const c10::intrusive_ptr<c10d::Store>& store, int rank,
                                         int size)
    : ProcessGroup(rank, size) {
  std::lock_guard<std::mutex> lock(runtime_mutex);
  if (!process_runtime || process_runtime->finalized()) {
    // The first group is Halyard's world; its progress thread completes every Work.
    RuntimeParts parts = job_parts(std::make_unique<StoreBootstrap>(store, rank, size));
    parts.progress_thread = true;
    process_runtime = std::make_shared<Runtime>(std::move(parts));
    comm_ = process_runtime->world();
  } else {
    // A later group: its members, by their rank in that world, in group rank order.
    const Communicator& world = process_runtime->world();
    const std::string mine = std::to_string(world.rank());
    store->set("halyard/member/" + std::to_string(rank), {mine.begin(), mine.end()});
    std::vector<int> members;
    for (int r = 0; r < size; ++r) {
      const std::vector<std::uint8_t> value = store->get("halyard/member/" + std::to_string(r));
      members.push_back(std::stoi(std::string(value.begin(), value.end())));
    }
    comm_ = world.subset(members);
  }
  runtime_ = process_runtime;
}

ProcessGroupHalyard::~ProcessGroupHalyard() = default;

void finalize_process_runtime() {
  std::lock_guard<std::mutex> lock(runtime_mutex);
  if (process_runtime && !process_runtime->finalized()) process_runtime->finalize();
}

WorkPtr ProcessGroupHalyard::broadcast(std::vector<at::Tensor>& tensors,
                                       const c10d::BroadcastOptions& opts) {
  at::Tensor& t = single(tensors, "broadcast");
  const int root = static_cast<int>(opts.rootRank);
  return post(c10d::OpType::BROADCAST, {t}, {},
              [&] { return ibcast(comm_, data(t), t.nbytes(), Datatype::kUint8, root); });
}

WorkPtr ProcessGroupHalyard::allreduce(std::vector<at::Tensor>& tensors,
                                       const c10d::AllreduceOptions& opts) {
  at::Tensor& t = single(tensors, "allreduce");
  const Datatype type = reduction_type(t);
  const Op op = reduction_op(opts.reduceOp);
  return post(c10d::OpType::ALLREDUCE, {t}, {}, [&] {
    return iallreduce(comm_, kInPlace, data(t), static_cast<std::size_t>(t.numel()), type, op);
  });
}

WorkPtr ProcessGroupHalyard::reduce(std::vector<at::Tensor>& tensors,
                                    const c10d::ReduceOptions& opts) {
  at::Tensor& t = single(tensors, "reduce");
  const Datatype type = reduction_type(t);
  const Op op = reduction_op(opts.reduceOp);
  const int root = static_cast<int>(opts.rootRank);
  const bool at_root = comm_.rank() == root;
  return post(c10d::OpType::REDUCE, {t}, {}, [&] {
    return ireduce(comm_, at_root ? kInPlace : data(t), at_root ? data(t) : nullptr,
                   static_cast<std::size_t>(t.numel()), type, op, root);
  });
}

WorkPtr ProcessGroupHalyard::allgather(std::vector<std::vector<at::Tensor>>& outputs,
                                       std::vector<at::Tensor>& inputs,
                                       const c10d::AllgatherOptions&) {
  at::Tensor& in = single(inputs, "allgather");
  TORCH_CHECK(outputs.size() == 1, "halyard backend: allgather takes one output list");
  check_list(outputs[0], static_cast<std::size_t>(getSize()), in, "allgather");
  at::Tensor flat = at::empty({in.numel() * getSize()}, in.options());
  Staging staging{{in}, nullptr, unpacker(flat, outputs[0])};
  return post(c10d::OpType::ALLGATHER, outputs[0], std::move(staging), [&] {
    return iallgather(comm_, data(in), data(flat), in.nbytes(), Datatype::kUint8);
  });
}

WorkPtr ProcessGroupHalyard::_allgather_base(at::Tensor& output, at::Tensor& input,
                                             const c10d::AllgatherOptions&) {
  check_tensor(input, "_allgather_base");
  check_tensor(output, "_allgather_base");
  TORCH_CHECK(
      output.numel() == input.numel() * getSize() && output.scalar_type() == input.scalar_type(),
      "halyard backend: _allgather_base needs an output of size x the input");
  return post(c10d::OpType::_ALLGATHER_BASE, {output}, {{input}, nullptr, {}}, [&] {
    return iallgather(comm_, data(input), data(output), input.nbytes(), Datatype::kUint8);
  });
}

WorkPtr ProcessGroupHalyard::gather(std::vector<std::vector<at::Tensor>>& outputs,
                                    std::vector<at::Tensor>& inputs,
                                    const c10d::GatherOptions& opts) {
  at::Tensor& in = single(inputs, "gather");
  const int root = static_cast<int>(opts.rootRank);
  Staging staging{{in}, nullptr, {}};
  void* recv = nullptr;
  std::vector<at::Tensor> results;
  if (getRank() == root) {
    TORCH_CHECK(outputs.size() == 1, "halyard backend: gather takes one output list at the root");
    check_list(outputs[0], static_cast<std::size_t>(getSize()), in, "gather");
    at::Tensor flat = at::empty({in.numel() * getSize()}, in.options());
    recv = data(flat);
    staging.unpack = unpacker(flat, outputs[0]);
    results = outputs[0];
  } else {
    TORCH_CHECK(outputs.empty(), "halyard backend: gather takes outputs at the root only");
  }
  return post(c10d::OpType::GATHER, results, std::move(staging),
              [&] { return igather(comm_, data(in), recv, in.nbytes(), Datatype::kUint8, root); });
}

WorkPtr ProcessGroupHalyard::scatter(std::vector<at::Tensor>& outputs,
                                     std::vector<std::vector<at::Tensor>>& inputs,
                                     const c10d::ScatterOptions& opts) {
  at::Tensor& out = single(outputs, "scatter");
  const int root = static_cast<int>(opts.rootRank);
  Staging staging;
  const void* send = nullptr;
  if (getRank() == root) {
    TORCH_CHECK(inputs.size() == 1, "halyard backend: scatter takes one input list at the root");
    check_list(inputs[0], static_cast<std::size_t>(getSize()), out, "scatter");
    staging.tensors.push_back(packed(inputs[0]));
    send = data(staging.tensors.back());
  } else {
    TORCH_CHECK(inputs.empty(), "halyard backend: scatter takes inputs at the root only");
  }
  return post(c10d::OpType::SCATTER, {out}, std::move(staging), [&] {
    return iscatter(comm_, send, data(out), out.nbytes(), Datatype::kUint8, root);
  });
}

WorkPtr ProcessGroupHalyard::reduce_scatter(std::vector<at::Tensor>& outputs,
                                            std::vector<std::vector<at::Tensor>>& inputs,
                                            const c10d::ReduceScatterOptions& opts) {
  at::Tensor& out = single(outputs, "reduce_scatter");
  TORCH_CHECK(inputs.size() == 1, "halyard backend: reduce_scatter takes one input list");
  check_list(inputs[0], static_cast<std::size_t>(getSize()), out, "reduce_scatter");
  at::Tensor send = packed(inputs[0]);
  return _reduce_scatter_base(out, send, opts);
}

WorkPtr ProcessGroupHalyard::_reduce_scatter_base(at::Tensor& output, at::Tensor& input,
                                                  const c10d::ReduceScatterOptions& opts) {
  check_tensor(input, "reduce_scatter");
  check_tensor(output, "reduce_scatter");
  TORCH_CHECK(
      input.numel() == output.numel() * getSize() && output.scalar_type() == input.scalar_type(),
      "halyard backend: reduce_scatter needs an input of size x the output");
  const Datatype type = reduction_type(output);
  const Op op = reduction_op(opts.reduceOp);
  return post(c10d::OpType::REDUCE_SCATTER, {output}, {{input}, nullptr, {}}, [&] {
    return ireduce_scatter_block(comm_, data(input), data(output),
                                 static_cast<std::size_t>(output.numel()), type, op);
  });
}

namespace {

// alltoallv's byte counts and displacements, both sides, kept alive with the Work.
struct AlltoallLayout {
  std::vector<std::size_t> send_counts, send_displs, recv_counts, recv_displs;
};

// Byte counts of `splits` rows of `row_bytes` (or `total` split evenly when `splits` is
// empty), and their packed displacements.
void byte_layout(const std::vector<int64_t>& splits, std::size_t total, std::size_t row_bytes,
                 int size, std::vector<std::size_t>& counts, std::vector<std::size_t>& displs,
                 const char* side) {
  TORCH_CHECK(splits.empty() || splits.size() == static_cast<std::size_t>(size),
              "halyard backend: alltoall_base: ", side, " splits need one entry per rank");
  std::size_t offset = 0;
  for (int r = 0; r < size; ++r) {
    const std::size_t bytes =
        splits.empty() ? total / static_cast<std::size_t>(size)
                       : static_cast<std::size_t>(splits[static_cast<std::size_t>(r)]) * row_bytes;
    counts.push_back(bytes);
    displs.push_back(offset);
    offset += bytes;
  }
  TORCH_CHECK(offset == total, "halyard backend: alltoall_base: ", side,
              " splits do not cover the tensor (", offset, " of ", total, " bytes)");
}

std::size_t row_bytes(const at::Tensor& t) {
  return t.dim() == 0 || t.size(0) == 0 ? t.nbytes()
                                        : t.nbytes() / static_cast<std::size_t>(t.size(0));
}

}  // namespace

// alltoallv from `input` into `output` by `splits` (rows along dim 0; empty: equal parts);
// `results` and `unpack` say what the Work returns and where the output goes afterwards.
WorkPtr ProcessGroupHalyard::alltoall_rows(at::Tensor& output, at::Tensor& input,
                                           const std::vector<int64_t>& output_splits,
                                           const std::vector<int64_t>& input_splits,
                                           std::vector<at::Tensor> results,
                                           std::function<void()> unpack) {
  check_tensor(input, "alltoall");
  check_tensor(output, "alltoall");
  auto layout = std::make_shared<AlltoallLayout>();
  byte_layout(input_splits, input.nbytes(), row_bytes(input), getSize(), layout->send_counts,
              layout->send_displs, "input");
  byte_layout(output_splits, output.nbytes(), row_bytes(output), getSize(), layout->recv_counts,
              layout->recv_displs, "output");
  const AlltoallLayout& l = *layout;
  Staging staging{{input, output}, layout, std::move(unpack)};
  return post(c10d::OpType::ALLTOALL, std::move(results), std::move(staging), [&] {
    return ialltoallv(comm_, data(input), l.send_counts.data(), l.send_displs.data(), data(output),
                      l.recv_counts.data(), l.recv_displs.data(), Datatype::kUint8);
  });
}

WorkPtr ProcessGroupHalyard::alltoall_base(at::Tensor& output, at::Tensor& input,
                                           std::vector<int64_t>& output_splits,
                                           std::vector<int64_t>& input_splits,
                                           const c10d::AllToAllOptions&) {
  return alltoall_rows(output, input, output_splits, input_splits, {output}, {});
}

WorkPtr ProcessGroupHalyard::alltoall(std::vector<at::Tensor>& outputs,
                                      std::vector<at::Tensor>& inputs,
                                      const c10d::AllToAllOptions&) {
  TORCH_CHECK(
      inputs.size() == static_cast<std::size_t>(getSize()) && outputs.size() == inputs.size(),
      "halyard backend: alltoall takes one input and one output tensor per rank");
  std::vector<int64_t> send_splits, recv_splits;
  for (std::size_t r = 0; r < inputs.size(); ++r) {
    check_tensor(inputs[r], "alltoall");
    check_tensor(outputs[r], "alltoall");
    TORCH_CHECK(inputs[r].scalar_type() == inputs[0].scalar_type() &&
                    outputs[r].scalar_type() == inputs[0].scalar_type(),
                "halyard backend: alltoall's tensors must share one dtype");
    send_splits.push_back(inputs[r].numel());
    recv_splits.push_back(outputs[r].numel());
  }
  at::Tensor send = packed(inputs);
  at::Tensor recv = at::empty({std::accumulate(recv_splits.begin(), recv_splits.end(), int64_t{0})},
                              inputs[0].options());
  return alltoall_rows(recv, send, recv_splits, send_splits, outputs, unpacker(recv, outputs));
}

WorkPtr ProcessGroupHalyard::barrier(const c10d::BarrierOptions&) {
  return post(c10d::OpType::BARRIER, {}, {}, [&] { return ibarrier(comm_); });
}

WorkPtr ProcessGroupHalyard::send(std::vector<at::Tensor>& tensors, int dst, int tag) {
  at::Tensor& t = single(tensors, "send");
  return post(c10d::OpType::SEND, {t}, {},
              [&] { return comm_.isend(dst, tag, data(t), t.nbytes()); });
}

WorkPtr ProcessGroupHalyard::recv(std::vector<at::Tensor>& tensors, int src, int tag) {
  at::Tensor& t = single(tensors, "recv");
  return post(c10d::OpType::RECV, {t}, {},
              [&] { return comm_.irecv(src, tag, data(t), t.nbytes()); });
}

}  // namespace halyard::torch_backend
