// HalyardWork: the c10d::Work of one Halyard request. Halyard's progress thread completes it
// (the request's completion callback): it copies the results out where the call staged them
// (unpack), marks the Work finished and completes its future with the output tensors, or with
// the error. It holds every tensor and array the request reads or writes until then.
#pragma once

#include <ATen/core/ivalue.h>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include <functional>
#include <memory>
#include <vector>

#include "runtime/request.hpp"

namespace halyard::torch_backend {

// What a call keeps alive until its request completes, beside its outputs.
struct Staging {
  std::vector<at::Tensor> tensors;     // inputs, packed copies
  std::shared_ptr<const void> arrays;  // counts and displacements (alltoall)
  std::function<void()> unpack;        // copies staged results into the outputs
};

class HalyardWork final : public c10d::Work {
 public:
  HalyardWork(c10d::OpType type, std::vector<at::Tensor> outputs, Staging staging);

  // Completes this work when `request` completes.
  void follow(const Request& request);

  c10::intrusive_ptr<c10::ivalue::Future> getFuture() override { return future_; }
  std::vector<at::Tensor> result() override { return outputs_; }

 private:
  void complete(const Status& status);

  std::vector<at::Tensor> outputs_;
  Staging staging_;
  c10::intrusive_ptr<c10::ivalue::Future> future_;
};

}  // namespace halyard::torch_backend
