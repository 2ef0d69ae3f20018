// Recursive-doubling scan and exscan: ceil(log2 p) exchanges of the whole vector.
#include <cstring>

#include "collectives/base/base.hpp"
#include "collectives/base/small_buffer.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard::base {

namespace {

// Round k exchanges `partial` (the reduction over a block of 2^k ranks containing this one)
// with rank r xor 2^k. What comes from a lower rank is the reduction of the ranks just below this
// rank's block: it joins the result (scan: which started as this rank's input; exscan: which
// starts empty) and, lower ranks first, the partial. What comes from a higher rank joins the
// partial only. Rank 0 of exscan receives nothing from below: its recv stays untouched, as MPI
// leaves it undefined.
class RecursiveDoublingScan final : public StepMachine {
 public:
  RecursiveDoublingScan(const Communicator& comm, int tag, const void* send, void* recv,
                        std::size_t count, Datatype type, Op op, bool exclusive)
      : StepMachine(comm, tag),
        recv_(recv),
        count_(count),
        bytes_(count * datatype_size(type)),
        type_(type),
        op_(op),
        exclusive_(exclusive) {
    const void* input = core::is_in_place(send) ? recv : send;
    partial_.allocate(bytes_);
    incoming_.allocate(bytes_);
    std::memcpy(partial_.data(), input, bytes_);
    if (!exclusive_ && input != recv) std::memcpy(recv_, input, bytes_);
    has_result_ = !exclusive_;
  }

 private:
  bool post_next_step() override {
    if (received_) take_incoming();
    if (distance_ >= size()) return false;
    partner_ = rank() ^ distance_;
    distance_ *= 2;
    received_ = partner_ < size();
    if (received_) {
      send(partner_, partial_.data(), bytes_);
      recv(partner_, incoming_.data(), bytes_);
    }
    return true;
  }

  void take_incoming() {
    if (partner_ > rank()) {
      reduce_to(op_, type_, partial_.data(), partial_.data(), incoming_.data(), count_);
      return;
    }
    reduce_to(op_, type_, partial_.data(), incoming_.data(), partial_.data(), count_);
    if (has_result_) {
      reduce_to(op_, type_, recv_, incoming_.data(), recv_, count_);
    } else {
      std::memcpy(recv_, incoming_.data(), bytes_);
      has_result_ = true;
    }
  }

  void* recv_;
  std::size_t count_;
  std::size_t bytes_;
  Datatype type_;
  Op op_;
  bool exclusive_;
  bool has_result_ = false;
  bool received_ = false;
  int distance_ = 1;
  int partner_ = -1;
  SmallBuffer<256> partial_;
  SmallBuffer<256> incoming_;
};

Request start_scan(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op, bool exclusive) {
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  return StepMachine::launch<RecursiveDoublingScan>(comm, tag, send, recv, count, type, op,
                                                    exclusive);
}

}  // namespace

Request iscan_recursive_doubling(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, Op op) {
  return start_scan(comm, send, recv, count, type, op, false);
}

Request iexscan_recursive_doubling(const Communicator& comm, const void* send, void* recv,
                                   std::size_t count, Datatype type, Op op) {
  return start_scan(comm, send, recv, count, type, op, true);
}

}  // namespace halyard::base
