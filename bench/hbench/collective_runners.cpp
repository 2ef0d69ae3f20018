// The six collectives as hbench runners, through the public API (collectives/collectives.hpp),
// so every call goes through the runtime's algorithm selection like an application's would.
// Reductions sum float32; the others move bytes. Each checked call fills inputs that make every
// element's expected value known, and compares all of them.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/hbench/runner.hpp"
#include "collectives/collectives.hpp"

namespace hbench {

namespace {

using halyard::Communicator;
using halyard::Datatype;

std::uint8_t pattern_byte(std::size_t i, std::size_t salt) {
  return static_cast<std::uint8_t>((i * 7 + salt * 13 + 1) & 0xff);
}

// Rank r contributes (r + 1) * (i % 7 + 1) to element i: small integers, so float sums are
// exact and every element's expected value is known.
float contribution(int rank, std::size_t i) {
  return static_cast<float>((rank + 1) * static_cast<int>(i % 7 + 1));
}
float expected_sum(int ranks, std::size_t i) {
  return static_cast<float>(ranks * (ranks + 1) / 2 * static_cast<int>(i % 7 + 1));
}

[[noreturn]] void wrong_element(const std::string& what, std::size_t bytes, std::size_t index,
                                double got, double want) {
  throw WrongResult(what + " of " + std::to_string(bytes) + " B: element " + std::to_string(index) +
                    " is " + std::to_string(got) + ", expected " + std::to_string(want));
}

class BcastRunner : public Runner {
 public:
  BcastRunner(const Communicator& world, int root, std::size_t max_bytes)
      : world_(world), root_(root), buffer_(max_bytes) {}
  std::size_t element_bytes() const override { return 1; }
  void verify(std::size_t bytes) override {
    const bool is_root = world_.rank() == root_;
    for (std::size_t i = 0; i < bytes; ++i) buffer_[i] = is_root ? pattern_byte(i, bytes) : 0;
    run(bytes);
    for (std::size_t i = 0; i < bytes; ++i) {
      if (buffer_[i] != pattern_byte(i, bytes))
        wrong_element("bcast", bytes, i, buffer_[i], pattern_byte(i, bytes));
    }
  }
  void run(std::size_t bytes) override {
    halyard::bcast(world_, buffer_.data(), bytes, Datatype::kUint8, root_);
  }

 private:
  Communicator world_;
  int root_;
  std::vector<std::uint8_t> buffer_;
};

// reduce (to `root`) and allreduce share their buffers and their check.
class SumRunner : public Runner {
 public:
  SumRunner(const Communicator& world, std::optional<int> root, std::size_t max_bytes)
      : world_(world), root_(root), send_(max_bytes / 4), recv_(max_bytes / 4) {}
  std::size_t element_bytes() const override { return sizeof(float); }
  void verify(std::size_t bytes) override {
    const std::size_t count = bytes / sizeof(float);
    for (std::size_t i = 0; i < count; ++i) {
      send_[i] = contribution(world_.rank(), i);
      recv_[i] = -1.0f;
    }
    run(bytes);
    if (root_ && world_.rank() != *root_) return;  // reduce: only the root has the result
    for (std::size_t i = 0; i < count; ++i) {
      if (recv_[i] != expected_sum(world_.size(), i))
        wrong_element(root_ ? "reduce" : "allreduce", bytes, i, static_cast<double>(recv_[i]),
                      static_cast<double>(expected_sum(world_.size(), i)));
    }
  }
  void run(std::size_t bytes) override {
    const std::size_t count = bytes / sizeof(float);
    if (root_) {
      halyard::reduce(world_, send_.data(), recv_.data(), count, Datatype::kFloat32,
                      halyard::Op::kSum, *root_);
    } else {
      halyard::allreduce(world_, send_.data(), recv_.data(), count, Datatype::kFloat32,
                         halyard::Op::kSum);
    }
  }

 private:
  Communicator world_;
  std::optional<int> root_;  // nullopt: allreduce
  std::vector<float> send_;
  std::vector<float> recv_;
};

// allgather and alltoall: `bytes` is one block; block b of rank r carries pattern (r, b).
class BlockExchangeRunner : public Runner {
 public:
  BlockExchangeRunner(const Communicator& world, bool all_to_all, std::size_t max_bytes)
      : world_(world),
        all_to_all_(all_to_all),
        send_(all_to_all ? max_bytes * static_cast<std::size_t>(world.size()) : max_bytes),
        recv_(max_bytes * static_cast<std::size_t>(world.size())) {}
  std::size_t element_bytes() const override { return 1; }
  void verify(std::size_t bytes) override {
    const auto p = static_cast<std::size_t>(world_.size());
    const auto me = static_cast<std::size_t>(world_.rank());
    const std::size_t send_blocks = all_to_all_ ? p : 1;
    for (std::size_t b = 0; b < send_blocks; ++b) {
      // Allgather: my one block is tagged with me; alltoall: block b goes to rank b.
      const std::size_t salt = all_to_all_ ? me * p + b : me;
      for (std::size_t i = 0; i < bytes; ++i) send_[b * bytes + i] = pattern_byte(i, salt);
    }
    std::fill(recv_.begin(), recv_.begin() + static_cast<std::ptrdiff_t>(p * bytes), 0);
    run(bytes);
    for (std::size_t from = 0; from < p; ++from) {
      const std::size_t salt = all_to_all_ ? from * p + me : from;
      for (std::size_t i = 0; i < bytes; ++i) {
        if (recv_[from * bytes + i] != pattern_byte(i, salt))
          wrong_element(all_to_all_ ? "alltoall" : "allgather", bytes, from * bytes + i,
                        recv_[from * bytes + i], pattern_byte(i, salt));
      }
    }
  }
  void run(std::size_t bytes) override {
    if (all_to_all_) {
      halyard::alltoall(world_, send_.data(), recv_.data(), bytes, Datatype::kUint8);
    } else {
      halyard::allgather(world_, send_.data(), recv_.data(), bytes, Datatype::kUint8);
    }
  }

 private:
  Communicator world_;
  bool all_to_all_;
  std::vector<std::uint8_t> send_;
  std::vector<std::uint8_t> recv_;
};

class BarrierRunner : public Runner {
 public:
  explicit BarrierRunner(const Communicator& world) : world_(world) {}
  std::size_t element_bytes() const override { return 0; }
  void verify(std::size_t) override { run(0); }  // a barrier has no data to check
  void run(std::size_t) override { halyard::barrier(world_); }

 private:
  Communicator world_;
};

}  // namespace

std::unique_ptr<Runner> make_runner(Benchmark benchmark, const Communicator& world, int root,
                                    std::size_t max_bytes) {
  switch (benchmark) {
    case Benchmark::kBcast:
      return std::make_unique<BcastRunner>(world, root, max_bytes);
    case Benchmark::kReduce:
      return std::make_unique<SumRunner>(world, root, max_bytes);
    case Benchmark::kAllreduce:
      return std::make_unique<SumRunner>(world, std::nullopt, max_bytes);
    case Benchmark::kAllgather:
      return std::make_unique<BlockExchangeRunner>(world, false, max_bytes);
    case Benchmark::kAlltoall:
      return std::make_unique<BlockExchangeRunner>(world, true, max_bytes);
    case Benchmark::kBarrier:
      return std::make_unique<BarrierRunner>(world);
    case Benchmark::kP2p:
      return make_pingpong_runner(world, max_bytes);
  }
  return nullptr;
}

}  // namespace hbench
