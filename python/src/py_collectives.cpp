// The collectives and point-to-point calls on Python buffers. Each checks what it can check on
// this rank (contiguity, element types, buffer lengths against the counts: a collective must
// never write past a Python buffer), then runs the C++ call: blocking with the GIL released,
// or non-blocking as i<name>, returning a Request that keeps the buffers alive. Reductions run
// on the buffer's datatype; data movement moves any fixed-size element as bytes.
#include <pybind11/stl.h>

#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "buffer_view.hpp"
#include "collectives/collectives.hpp"

namespace halyard::python {

namespace {

enum class Mode { kBlocking, kNonBlocking };

// Runs `blocking` or posts `posting` (the same call's two forms) with the GIL released.
template <class Blocking, class Posting>
py::object run(Mode mode, Kept kept, Blocking blocking, Posting posting) {
  if (mode == Mode::kBlocking) {
    {
      py::gil_scoped_release release;
      blocking();
    }
    return kept.result;
  }
  Request request;
  {
    py::gil_scoped_release release;
    request = posting();
  }
  return py::cast(std::make_unique<PyRequest>(std::move(request), std::move(kept)));
}

std::string name_of(Mode mode, const char* call) {
  return std::string(mode == Mode::kNonBlocking ? "i" : "") + call;
}

// Element counts and displacements of a v-collective, in bytes for the call and kept alive
// with its request.
struct Layout {
  std::vector<std::size_t> counts;
  std::vector<std::size_t> displacements;
};

// `counts` (one per rank) and `displacements` (None: packed in rank order) over a buffer of
// `view`, checked against its length, scaled to bytes.
std::shared_ptr<Layout> layout_of(const std::vector<std::size_t>& counts,
                                  const std::optional<std::vector<std::size_t>>& displacements,
                                  const BufferView& view, int size, const std::string& what) {
  if (counts.size() != static_cast<std::size_t>(size) ||
      (displacements && displacements->size() != counts.size())) {
    throw py::value_error("halyard " + what +
                          ": counts and displacements need one entry per rank (" +
                          std::to_string(size) + ")");
  }
  auto layout = std::make_shared<Layout>();
  std::size_t packed = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::size_t offset = displacements ? (*displacements)[i] : packed;
    if (offset + counts[i] > view.count) {
      throw py::value_error("halyard " + what + ": rank " + std::to_string(i) + "'s block [" +
                            std::to_string(offset) + ", " + std::to_string(offset + counts[i]) +
                            ") is past the buffer's " + std::to_string(view.count) + " elements");
    }
    layout->counts.push_back(counts[i] * view.itemsize);
    layout->displacements.push_back(offset * view.itemsize);
    packed += counts[i];
  }
  return layout;
}

using Counts = std::vector<std::size_t>;
using OptionalCounts = std::optional<std::vector<std::size_t>>;

py::object barrier(Mode mode, const PyCommunicator& self) {
  const Communicator& comm = self.get();
  return run(
      mode, {}, [&] { halyard::barrier(comm); }, [&] { return ibarrier(comm); });
}

py::object bcast(Mode mode, const PyCommunicator& self, const py::object& buffer, int root) {
  const Communicator& comm = self.get();
  const BufferView view = view_buffer(buffer, Access::kWrite, name_of(mode, "bcast") + ": buffer");
  return run(
      mode, {{buffer}, buffer},
      [&] { halyard::bcast(comm, view.data, view.bytes(), Datatype::kUint8, root); },
      [&] { return ibcast(comm, view.data, view.bytes(), Datatype::kUint8, root); });
}

// A reduction's send and receive views; recv None: in place (the result replaces send).
struct Reduction {
  BufferView send;
  BufferView recv;
  const void* send_data = nullptr;
  Datatype type = Datatype::kUint8;
  py::object result;
};

Reduction reduction_of(const std::string& what, const py::object& send, const py::object& recv,
                       bool receives) {
  Reduction r;
  const bool in_place = recv.is_none();
  r.send =
      view_buffer(send, in_place && receives ? Access::kWrite : Access::kRead, what + ": send");
  r.type = reduction_type(r.send, what + ": send");
  if (in_place) {
    r.recv = r.send;
    r.send_data = kInPlace;
    r.result = send;
  } else {
    r.send_data = r.send.data;
    if (receives) {
      r.recv = view_buffer(recv, Access::kWrite, what + ": recv");
      require_same_element(r.recv, r.send, what + ": recv");
      require_count(r.recv, r.send.count, what + ": recv");
    }
    r.result = receives ? recv : py::object(py::none());
  }
  return r;
}

py::object allreduce(Mode mode, const PyCommunicator& self, const py::object& send,
                     const py::object& recv, Op op) {
  const Communicator& comm = self.get();
  const Reduction r = reduction_of(name_of(mode, "allreduce"), send, recv, true);
  return run(
      mode, {{send, recv}, r.result},
      [&] { halyard::allreduce(comm, r.send_data, r.recv.data, r.send.count, r.type, op); },
      [&] { return iallreduce(comm, r.send_data, r.recv.data, r.send.count, r.type, op); });
}

py::object reduce(Mode mode, const PyCommunicator& self, const py::object& send,
                  const py::object& recv, Op op, int root) {
  const Communicator& comm = self.get();
  const bool at_root = comm.rank() == root;
  const Reduction r =
      reduction_of(name_of(mode, "reduce"), send, at_root ? recv : py::none(), at_root);
  const void* send_data = at_root ? r.send_data : r.send.data;
  void* recv_data = at_root ? r.recv.data : nullptr;
  return run(
      mode, {{send, recv}, r.result},
      [&] { halyard::reduce(comm, send_data, recv_data, r.send.count, r.type, op, root); },
      [&] { return ireduce(comm, send_data, recv_data, r.send.count, r.type, op, root); });
}

// scan and exscan: recv is needed (no in-place form here).
template <bool exclusive>
py::object scan(Mode mode, const PyCommunicator& self, const py::object& send,
                const py::object& recv, Op op) {
  const Communicator& comm = self.get();
  const std::string what = name_of(mode, exclusive ? "exscan" : "scan");
  if (recv.is_none()) throw py::value_error("halyard " + what + ": needs a recv buffer");
  const Reduction r = reduction_of(what, send, recv, true);
  const auto call = exclusive ? &halyard::exscan : &halyard::scan;
  const auto post = exclusive ? &halyard::iexscan : &halyard::iscan;
  return run(
      mode, {{send, recv}, r.result},
      [&] { call(comm, r.send.data, r.recv.data, r.send.count, r.type, op); },
      [&] { return post(comm, r.send.data, r.recv.data, r.send.count, r.type, op); });
}

// A call's send and receive buffers, both on every rank, with the same element type.
struct SendRecv {
  std::string what;
  BufferView send;
  BufferView recv;
};

SendRecv send_recv(Mode mode, const char* call, const py::object& send, const py::object& recv) {
  SendRecv pair{name_of(mode, call), {}, {}};
  pair.send = view_buffer(send, Access::kRead, pair.what + ": send");
  pair.recv = view_buffer(recv, Access::kWrite, pair.what + ": recv");
  require_same_element(pair.recv, pair.send, pair.what + ": recv");
  return pair;
}

// reduce_scatter_block: send holds size blocks of recv's length.
py::object reduce_scatter_block(Mode mode, const PyCommunicator& self, const py::object& send,
                                const py::object& recv, Op op) {
  const Communicator& comm = self.get();
  const auto [what, s, v] = send_recv(mode, "reduce_scatter_block", send, recv);
  const Datatype type = reduction_type(s, what + ": send");
  require_count(s, v.count * static_cast<std::size_t>(comm.size()), what + ": send");
  return run(
      mode, {{send, recv}, recv},
      [&] { halyard::reduce_scatter_block(comm, s.data, v.data, v.count, type, op); },
      [&] { return ireduce_scatter_block(comm, s.data, v.data, v.count, type, op); });
}

py::object reduce_scatter(Mode mode, const PyCommunicator& self, const py::object& send,
                          const py::object& recv, const Counts& counts, Op op) {
  const Communicator& comm = self.get();
  const auto [what, s, v] = send_recv(mode, "reduce_scatter", send, recv);
  const Datatype type = reduction_type(s, what + ": send");
  layout_of(counts, std::nullopt, s, comm.size(), what + ": send");
  require_count(v, counts[static_cast<std::size_t>(comm.rank())], what + ": recv");
  auto kept_counts = std::make_shared<Counts>(counts);
  return run(
      mode, {{send, recv}, recv, kept_counts},
      [&] { halyard::reduce_scatter(comm, s.data, v.data, kept_counts->data(), type, op); },
      [&] { return ireduce_scatter(comm, s.data, v.data, kept_counts->data(), type, op); });
}

// allgather and alltoall: recv holds size blocks of send's length (alltoall: send holds them too).
template <bool all_to_all>
py::object gather_to_all(Mode mode, const PyCommunicator& self, const py::object& send,
                         const py::object& recv) {
  const Communicator& comm = self.get();
  const auto [what, s, v] = send_recv(mode, all_to_all ? "alltoall" : "allgather", send, recv);
  const auto size = static_cast<std::size_t>(comm.size());
  if (all_to_all && s.count % size != 0) {
    throw py::value_error("halyard " + what + ": send's " + std::to_string(s.count) +
                          " elements do not split into " + std::to_string(size) + " blocks");
  }
  require_count(v, all_to_all ? s.count : s.count * size, what + ": recv");
  const std::size_t block = all_to_all ? s.bytes() / size : s.bytes();
  const auto call = all_to_all ? &halyard::alltoall : &halyard::allgather;
  const auto post = all_to_all ? &halyard::ialltoall : &halyard::iallgather;
  return run(
      mode, {{send, recv}, recv}, [&] { call(comm, s.data, v.data, block, Datatype::kUint8); },
      [&] { return post(comm, s.data, v.data, block, Datatype::kUint8); });
}

// gather (send -> root's recv, size blocks) and scatter (root's send, size blocks -> recv):
// `block` is the buffer every rank passes, `whole` the root's.
template <bool scatter>
py::object gather_at_root(Mode mode, const PyCommunicator& self, const py::object& send,
                          const py::object& recv, int root) {
  const py::object& block = scatter ? recv : send;
  const py::object& whole = scatter ? send : recv;
  const Communicator& comm = self.get();
  const std::string what = name_of(mode, scatter ? "scatter" : "gather");
  const std::string block_name = scatter ? ": recv" : ": send";
  const std::string whole_name = scatter ? ": send" : ": recv";
  const BufferView b =
      view_buffer(block, scatter ? Access::kWrite : Access::kRead, what + block_name);
  BufferView w;
  if (comm.rank() == root) {
    if (whole.is_none())
      throw py::value_error("halyard " + what + whole_name + ": needed at the root");
    w = view_buffer(whole, scatter ? Access::kRead : Access::kWrite, what + whole_name);
    require_same_element(w, b, what + whole_name);
    require_count(w, b.count * static_cast<std::size_t>(comm.size()), what + whole_name);
  }
  const py::object result = scatter ? block : whole;
  if (scatter) {
    return run(
        mode, {{block, whole}, result},
        [&] { halyard::scatter(comm, w.data, b.data, b.bytes(), Datatype::kUint8, root); },
        [&] { return iscatter(comm, w.data, b.data, b.bytes(), Datatype::kUint8, root); });
  }
  return run(
      mode, {{block, whole}, result},
      [&] { halyard::gather(comm, b.data, w.data, b.bytes(), Datatype::kUint8, root); },
      [&] { return igather(comm, b.data, w.data, b.bytes(), Datatype::kUint8, root); });
}

// The root's side of gatherv and scatterv: its whole buffer laid out by counts and
// displacements; elsewhere none (no buffer, no arrays).
struct RootSide {
  std::shared_ptr<Layout> layout = std::make_shared<Layout>();
  void* data = nullptr;

  const std::size_t* counts() const {
    return layout->counts.empty() ? nullptr : layout->counts.data();
  }
  const std::size_t* displacements() const {
    return layout->displacements.empty() ? nullptr : layout->displacements.data();
  }
};

RootSide root_side(const Communicator& comm, int root, const py::object& whole, Access access,
                   const BufferView& block, const Counts& counts, const OptionalCounts& displs,
                   const std::string& what) {
  RootSide side;
  if (comm.rank() != root) return side;
  const BufferView view = view_buffer(whole, access, what);
  require_same_element(view, block, what);
  side.layout = layout_of(counts, displs, view, comm.size(), what);
  side.data = view.data;
  return side;
}

py::object gatherv(Mode mode, const PyCommunicator& self, const py::object& send,
                   const py::object& recv, const Counts& counts, const OptionalCounts& displs,
                   int root) {
  const Communicator& comm = self.get();
  const std::string what = name_of(mode, "gatherv");
  const BufferView s = view_buffer(send, Access::kRead, what + ": send");
  const RootSide r =
      root_side(comm, root, recv, Access::kWrite, s, counts, displs, what + ": recv");
  const std::size_t* c = r.counts();
  const std::size_t* d = r.displacements();
  return run(
      mode, {{send, recv}, recv, r.layout},
      [&] { halyard::gatherv(comm, s.data, s.bytes(), r.data, c, d, Datatype::kUint8, root); },
      [&] { return igatherv(comm, s.data, s.bytes(), r.data, c, d, Datatype::kUint8, root); });
}

py::object scatterv(Mode mode, const PyCommunicator& self, const py::object& send,
                    const py::object& recv, const Counts& counts, const OptionalCounts& displs,
                    int root) {
  const Communicator& comm = self.get();
  const std::string what = name_of(mode, "scatterv");
  const BufferView v = view_buffer(recv, Access::kWrite, what + ": recv");
  const RootSide r = root_side(comm, root, send, Access::kRead, v, counts, displs, what + ": send");
  const std::size_t* c = r.counts();
  const std::size_t* d = r.displacements();
  return run(
      mode, {{send, recv}, recv, r.layout},
      [&] { halyard::scatterv(comm, r.data, c, d, v.data, v.bytes(), Datatype::kUint8, root); },
      [&] { return iscatterv(comm, r.data, c, d, v.data, v.bytes(), Datatype::kUint8, root); });
}

py::object allgatherv(Mode mode, const PyCommunicator& self, const py::object& send,
                      const py::object& recv, const Counts& counts, const OptionalCounts& displs) {
  const Communicator& comm = self.get();
  const auto [what, s, v] = send_recv(mode, "allgatherv", send, recv);
  const auto layout = layout_of(counts, displs, v, comm.size(), what + ": recv");
  const std::size_t* c = layout->counts.data();
  const std::size_t* d = layout->displacements.data();
  return run(
      mode, {{send, recv}, recv, layout},
      [&] { halyard::allgatherv(comm, s.data, s.bytes(), v.data, c, d, Datatype::kUint8); },
      [&] { return iallgatherv(comm, s.data, s.bytes(), v.data, c, d, Datatype::kUint8); });
}

py::object alltoallv(Mode mode, const PyCommunicator& self, const py::object& send,
                     const Counts& send_counts, const py::object& recv, const Counts& recv_counts,
                     const OptionalCounts& send_displs, const OptionalCounts& recv_displs) {
  const Communicator& comm = self.get();
  const auto [what, s, v] = send_recv(mode, "alltoallv", send, recv);
  const auto out = layout_of(send_counts, send_displs, s, comm.size(), what + ": send");
  const auto in = layout_of(recv_counts, recv_displs, v, comm.size(), what + ": recv");
  const auto both =
      std::make_shared<std::pair<std::shared_ptr<Layout>, std::shared_ptr<Layout>>>(out, in);
  return run(
      mode, {{send, recv}, recv, both},
      [&] {
        halyard::alltoallv(comm, s.data, out->counts.data(), out->displacements.data(), v.data,
                           in->counts.data(), in->displacements.data(), Datatype::kUint8);
      },
      [&] {
        return ialltoallv(comm, s.data, out->counts.data(), out->displacements.data(), v.data,
                          in->counts.data(), in->displacements.data(), Datatype::kUint8);
      });
}

py::object send(Mode mode, const PyCommunicator& self, const py::object& buffer, int dest,
                int tag) {
  const Communicator& comm = self.get();
  const BufferView view = view_buffer(buffer, Access::kRead, name_of(mode, "send") + ": buffer");
  return run(
      mode, {{buffer}}, [&] { comm.send(dest, tag, view.data, view.bytes()); },
      [&] { return comm.isend(dest, tag, view.data, view.bytes()); });
}

py::object recv(Mode mode, const PyCommunicator& self, const py::object& buffer, int source,
                int tag) {
  const Communicator& comm = self.get();
  const BufferView view = view_buffer(buffer, Access::kWrite, name_of(mode, "recv") + ": buffer");
  return run(
      mode, {{buffer}, buffer}, [&] { comm.recv(source, tag, view.data, view.bytes()); },
      [&] { return comm.irecv(source, tag, view.data, view.bytes()); });
}

// Binds `fn` twice: as `name` (blocking) and as `i<name>` (returns a Request).
template <class... Args, class... Extra>
void def_both(py::class_<PyCommunicator>& cls, const std::string& name,
              py::object (*fn)(Mode, const PyCommunicator&, Args...), const Extra&... extra) {
  cls.def(
      name.c_str(),
      [fn](const PyCommunicator& self, Args... args) { return fn(Mode::kBlocking, self, args...); },
      extra...);
  cls.def(("i" + name).c_str(),
          [fn](const PyCommunicator& self, Args... args) {
            return fn(Mode::kNonBlocking, self, args...);
          },
          extra...);
}

}  // namespace

void bind_collectives(py::class_<PyCommunicator>& c) {
  using py::arg;
  const auto none = py::none();
  const auto sum = Op::kSum;
  def_both(c, "barrier", &barrier);
  def_both(c, "bcast", &bcast, arg("buffer"), arg("root") = 0);
  def_both(c, "allreduce", &allreduce, arg("send"), arg("recv") = none, arg("op") = sum,
           "recv None: in place, the result replaces send.");
  def_both(c, "reduce", &reduce, arg("send"), arg("recv") = none, arg("op") = sum, arg("root") = 0,
           "recv None at the root: in place; ignored elsewhere.");
  def_both(c, "scan", &scan<false>, arg("send"), arg("recv"), arg("op") = sum);
  def_both(c, "exscan", &scan<true>, arg("send"), arg("recv"), arg("op") = sum);
  def_both(c, "allgather", &gather_to_all<false>, arg("send"), arg("recv"));
  def_both(c, "alltoall", &gather_to_all<true>, arg("send"), arg("recv"));
  def_both(c, "gather", &gather_at_root<false>, arg("send"), arg("recv") = none, arg("root") = 0,
           "recv (size blocks of send's length) is needed at the root only.");
  def_both(c, "scatter", &gather_at_root<true>, arg("send"), arg("recv"), arg("root") = 0,
           "send (size blocks of recv's length) is needed at the root only.");
  def_both(c, "reduce_scatter_block", &reduce_scatter_block, arg("send"), arg("recv"),
           arg("op") = sum);
  def_both(c, "reduce_scatter", &reduce_scatter, arg("send"), arg("recv"), arg("counts"),
           arg("op") = sum);
  def_both(c, "gatherv", &gatherv, arg("send"), arg("recv"), arg("counts"), arg("displs") = none,
           arg("root") = 0);
  def_both(c, "scatterv", &scatterv, arg("send"), arg("recv"), arg("counts"), arg("displs") = none,
           arg("root") = 0);
  def_both(c, "allgatherv", &allgatherv, arg("send"), arg("recv"), arg("counts"),
           arg("displs") = none);
  def_both(c, "alltoallv", &alltoallv, arg("send"), arg("send_counts"), arg("recv"),
           arg("recv_counts"), arg("send_displs") = none, arg("recv_displs") = none);
  def_both(c, "send", &send, arg("buffer"), arg("dest"), arg("tag") = 0);
  def_both(c, "recv", &recv, arg("buffer"), arg("source"), arg("tag") = 0);
}

}  // namespace halyard::python
