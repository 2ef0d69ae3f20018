// MPI's one-sided communication and synchronization calls on a window (window_object.hpp). The
// calls check their arguments with MPI's error classes and describe each operation as an
// RmaCall (rma/rma_call.hpp); the window moves the data and keeps the epochs.
#include <mpi.h>

#include <memory>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/group_table.hpp"
#include "shim/reduction_args.hpp"
#include "shim/target_blocks.hpp"
#include "shim/window_table.hpp"

using namespace halyard::mpi_shim;
using halyard::RmaCall;
using halyard::RmaKind;

namespace {

// The handle of a predefined element type (what accumulates compute in at the target).
MPI_Datatype handle_of(const DatatypeInfo* element) {
  for (int index = 1;; ++index) {
    const DatatypeInfo* info = find_predefined_datatype(HALYARD_MPI_KIND_DATATYPE | index);
    if (info == nullptr) fail(MPI_ERR_TYPE, "no predefined handle for an element type");
    if (info == element) return HALYARD_MPI_KIND_DATATYPE | index;
  }
}

// MPI_ERR_OP unless `op` may accumulate `type`: a predefined op defined on it, MPI_REPLACE or
// MPI_NO_OP (user ops are not allowed in one-sided calls). Returns the element handle.
MPI_Datatype accumulate_element(MPI_Op op, const TypeObject& type, std::size_t count,
                                MPI_Datatype datatype) {
  if (type.single_element == nullptr) {
    fail(MPI_ERR_TYPE, "an accumulate needs a datatype of one predefined element type");
  }
  if (op != MPI_REPLACE && op != MPI_NO_OP) {
    if (find_op(op) == nullptr) {
      fail(MPI_ERR_OP, "one-sided accumulates take predefined ops, MPI_REPLACE or MPI_NO_OP");
    }
    checked_reduction(count, datatype, type, op);
  }
  return handle_of(type.single_element);
}

struct RmaArgs {
  RmaKind kind;
  const void* origin_addr = nullptr;
  int origin_count = 0;
  MPI_Datatype origin_datatype = MPI_BYTE;
  void* result_addr = nullptr;
  int result_count = 0;
  MPI_Datatype result_datatype = MPI_BYTE;
  int target_rank = 0;
  MPI_Aint target_disp = 0;
  int target_count = 0;
  MPI_Datatype target_datatype = MPI_BYTE;
  MPI_Op op = MPI_REPLACE;
};

bool has_origin(const RmaArgs& a) {
  return a.kind == RmaKind::kPut || a.kind == RmaKind::kAccumulate ||
         (a.kind == RmaKind::kGetAccumulate && a.op != MPI_NO_OP);
}

bool has_result(const RmaArgs& a) {
  return a.kind == RmaKind::kGet || a.kind == RmaKind::kGetAccumulate;
}

[[noreturn]] void invalid_window_rank(const WindowObject& window, int rank, const char* role) {
  fail(MPI_ERR_RANK, "invalid " + std::string(role) + " rank " + std::to_string(rank) +
                         " (window size " + std::to_string(window.size()) + ")");
}

// MPI_ERR_RANK unless `rank` is one of the window's (its group is an intracommunicator's, whose
// size the window keeps: no communicator look-up on every operation).
inline void check_window_rank(const WindowObject& window, int rank, const char* role) {
  if (rank < 0 || rank >= window.size()) [[unlikely]]
    invalid_window_rank(window, rank, role);
}

// One side of an operation as the caller gave it, checked: the origin's data or the buffer the
// result lands in.
struct LocalSide {
  const void* addr = nullptr;
  std::size_t count = 0;
  const TypeObject* type = nullptr;
};

// `target` is the target's datatype, checked already: most calls pass the same handle for both
// sides, which is then looked up once.
LocalSide checked_side(const void* addr, int count, MPI_Datatype datatype, const char* addr_name,
                       const char* count_name, const char* type_name, MPI_Datatype target_datatype,
                       const TypeObject& target_type) {
  const TypeObject& type =
      datatype == target_datatype ? target_type : checked_datatype(datatype, type_name);
  const std::size_t n = checked_count(count, count_name);
  check_buffer(addr, n, type, addr_name);
  return {addr, n, &type};
}

// The usual put or get, contiguous on both sides (predefined types, contiguous derived ones):
// copied at once where the window allows it, or packed (Window::try_contiguous), before any
// RmaCall is built; false otherwise, and the operation takes the general path.
bool contiguous_put_or_get(WindowObject& window, const RmaArgs& a, const LocalSide& local,
                           const TypeObject& target_type, std::size_t target_count, bool may_pack) {
  const TypeObject& type = *local.type;
  if (type.map.empty() || target_type.map.empty() || !type.contiguous_for(local.count) ||
      !target_type.contiguous_for(target_count)) {
    return false;
  }
  const std::size_t bytes = local.count * type.size;
  return bytes == target_count * target_type.size &&
         window.try_contiguous(a.kind, a.target_rank, a.target_disp, target_type.map.front().offset,
                               address_at(local.addr, type.map.front().offset), bytes, may_pack);
}

// The usual put or get, whole before any of the general path's frames: one datatype handle for
// both sides, the same count, contiguous data, a window that maps the target's memory in an open
// epoch (Window::copy_mapped). False for anything else, every error included: the general path
// then checks it all and names what is wrong. A one-byte put of osu_put_bw costs 239
// instructions this way, 362 through the general path (callgrind).
bool quick_put_or_get(bool put, const void* local, int count, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_datatype, MPI_Win win) {
  ShimState& state = shim_state();
  if (state.phase() != Phase::kInitialized || datatype != target_datatype ||
      count != target_count || count <= 0 || target_disp < 0 || local == nullptr ||
      is_in_place(local)) {
    return false;
  }
  const TypeObject* type = datatype_table().find(datatype);
  if (type == nullptr || !type->committed || type->map.empty() || !type->contiguous_for(count)) {
    return false;
  }
  halyard::EventLoop::Access call_lock(state.locked_loop());
  halyard::EventLoop::Access window_lock(state.runtime().loop());
  WindowObject* window = find_window(win);
  if (window == nullptr || target_rank < 0 || target_rank >= window->size()) return false;
  const std::int64_t offset = type->map.front().offset;
  return window->copy_mapped(put, target_rank, target_disp, offset, address_at(local, offset),
                             static_cast<std::size_t>(count) * type->size);
}

// Checks and starts one operation; a null request for MPI_PROC_NULL and for an operation that
// completed at once. `may_pack`: a blocking put, get or accumulate, which the window may pack
// with others (window.hpp).
halyard::Request start_rma(WindowObject& window, const RmaArgs& a, bool may_pack) {
  if (a.target_rank == MPI_PROC_NULL) return {};
  check_window_rank(window, a.target_rank, "target_rank");
  if (a.target_disp < 0) fail(MPI_ERR_DISP, "target_disp is negative");
  const std::size_t target_count = checked_count(a.target_count, "target_count");
  const TypeObject& target_type = checked_datatype(a.target_datatype, "target_datatype");
  LocalSide origin, result;
  if (has_origin(a)) {
    origin = checked_side(a.origin_addr, a.origin_count, a.origin_datatype, "origin_addr",
                          "origin_count", "origin_datatype", a.target_datatype, target_type);
  }
  if (has_result(a)) {
    result = checked_side(a.result_addr, a.result_count, a.result_datatype, "result_addr",
                          "result_count", "result_datatype", a.target_datatype, target_type);
  }
  if ((a.kind == RmaKind::kPut || a.kind == RmaKind::kGet) &&
      contiguous_put_or_get(window, a, a.kind == RmaKind::kPut ? origin : result, target_type,
                            target_count, may_pack)) {
    return {};
  }
  const TargetBlocks target_blocks(target_type, target_count);
  RmaCall call;
  call.kind = a.kind;
  call.target = a.target_rank;
  call.disp = a.target_disp;
  call.target_blocks = target_blocks.pairs();
  call.may_pack = may_pack;
  if (origin.type != nullptr) {
    TypedBuffer data(origin.addr, origin.count, *origin.type, TypedBuffer::Use::kSend);
    call.origin = {static_cast<const std::byte*>(data.data()), data.bytes()};
    if (data.staged()) call.keep_alive = std::make_shared<TypedBuffer>(std::move(data));
  }
  if (result.type != nullptr) {
    TypedBuffer into(result.addr, result.count, *result.type, TypedBuffer::Use::kReceive);
    call.result = {static_cast<std::byte*>(into.data()), into.bytes()};
    if (into.staged()) call.result_landed = [into] { into.complete(); };
  }
  if (a.kind == RmaKind::kAccumulate || a.kind == RmaKind::kGetAccumulate) {
    call.op = accumulate_code(
        a.op, accumulate_element(a.op, target_type, target_count, a.target_datatype));
  }
  return window.start(std::move(call));
}

int blocking_rma(const char* call, MPI_Win win, const RmaArgs& args) {
  return window_call(call, win, [&](WindowObject& window) { start_rma(window, args, true); });
}

int request_rma(const char* call, MPI_Win win, const RmaArgs& args, MPI_Request* request) {
  return window_call(call, win, [&](WindowObject& window) {
    check_out(request, "request");
    halyard::Request started = start_rma(window, args, false);
    if (!started.valid()) {
      started = halyard::Request::make_completed(window.comm().loop(), halyard::Status{});
    }
    *request = shim_state().add_request({std::move(started), window.errhandler});
  });
}

RmaArgs put_args(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                 int target_rank, MPI_Aint target_disp, int target_count,
                 MPI_Datatype target_datatype) {
  RmaArgs a{RmaKind::kPut};
  a.origin_addr = origin_addr;
  a.origin_count = origin_count;
  a.origin_datatype = origin_datatype;
  a.target_rank = target_rank;
  a.target_disp = target_disp;
  a.target_count = target_count;
  a.target_datatype = target_datatype;
  return a;
}

RmaArgs get_args(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                 MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype) {
  RmaArgs a =
      put_args(nullptr, 0, MPI_BYTE, target_rank, target_disp, target_count, target_datatype);
  a.kind = RmaKind::kGet;
  a.result_addr = origin_addr;
  a.result_count = origin_count;
  a.result_datatype = origin_datatype;
  return a;
}

RmaArgs accumulate_args(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op) {
  RmaArgs a = put_args(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                       target_count, target_datatype);
  a.kind = RmaKind::kAccumulate;
  a.op = op;
  return a;
}

// An accumulate that also returns the target's previous data.
RmaArgs fetching(RmaArgs a, void* result_addr, int result_count, MPI_Datatype result_datatype) {
  a.kind = RmaKind::kGetAccumulate;
  a.result_addr = result_addr;
  a.result_count = result_count;
  a.result_datatype = result_datatype;
  return a;
}

// One synchronization call that names the window only.
template <typename Action>
int window_sync(const char* call, MPI_Win win, Action action) {
  return window_call(call, win, [&](WindowObject& window) { action(window); });
}

// One synchronization call that names a target rank (MPI_PROC_NULL: nothing to do).
template <typename Action>
int target_sync(const char* call, int rank, MPI_Win win, Action action) {
  return window_call(call, win, [&](WindowObject& window) {
    if (rank == MPI_PROC_NULL) return;
    check_window_rank(window, rank, "rank");
    action(window, rank);
  });
}

void check_assert(int assert) {
  constexpr int kAll = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                       MPI_MODE_NOSUCCEED;
  if ((assert & ~kAll) != 0) fail(MPI_ERR_ASSERT, "assert " + std::to_string(assert));
}

}  // namespace

extern "C" {

int MPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Win win) {
  if (quick_put_or_get(true, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                       target_count, target_datatype, win)) {
    return MPI_SUCCESS;
  }
  return blocking_rma("MPI_Put", win,
                      put_args(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                               target_count, target_datatype));
}

int MPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  if (quick_put_or_get(false, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                       target_count, target_datatype, win)) {
    return MPI_SUCCESS;
  }
  return blocking_rma("MPI_Get", win,
                      get_args(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                               target_count, target_datatype));
}

int MPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win, MPI_Request* request) {
  return request_rma("MPI_Rput", win,
                     put_args(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                              target_count, target_datatype),
                     request);
}

int MPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request* request) {
  return request_rma("MPI_Rget", win,
                     get_args(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                              target_count, target_datatype),
                     request);
}

int MPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return blocking_rma("MPI_Accumulate", win,
                      accumulate_args(origin_addr, origin_count, origin_datatype, target_rank,
                                      target_disp, target_count, target_datatype, op));
}

int MPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  return request_rma("MPI_Raccumulate", win,
                     accumulate_args(origin_addr, origin_count, origin_datatype, target_rank,
                                     target_disp, target_count, target_datatype, op),
                     request);
}

int MPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       void* result_addr, int result_count, MPI_Datatype result_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  RmaArgs a = accumulate_args(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                              target_count, target_datatype, op);
  return blocking_rma("MPI_Get_accumulate", win,
                      fetching(a, result_addr, result_count, result_datatype));
}

int MPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void* result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                        MPI_Request* request) {
  RmaArgs a = accumulate_args(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                              target_count, target_datatype, op);
  return request_rma("MPI_Rget_accumulate", win,
                     fetching(a, result_addr, result_count, result_datatype), request);
}

int MPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  return MPI_Get_accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
                            target_disp, 1, datatype, op, win);
}

int MPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                         MPI_Win win) {
  return window_call("MPI_Compare_and_swap", win, [&](WindowObject& window) {
    if (target_rank == MPI_PROC_NULL) return;
    const TypeObject& type = checked_datatype(datatype);
    if (!type.predefined) fail(MPI_ERR_TYPE, "MPI_Compare_and_swap takes a predefined datatype");
    check_buffer(origin_addr, 1, type, "origin_addr");
    check_buffer(compare_addr, 1, type, "compare_addr");
    check_buffer(result_addr, 1, type, "result_addr");
    check_window_rank(window, target_rank, "target_rank");
    window.compare_and_swap(origin_addr, compare_addr, result_addr, type.size, target_rank,
                            target_disp);
  });
}

int MPI_Win_fence(int assert, MPI_Win win) {
  return window_sync("MPI_Win_fence", win, [&](WindowObject& w) {
    check_assert(assert);
    w.fence((assert& MPI_MODE_NOSUCCEED) == 0);
  });
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  return window_sync("MPI_Win_post", win, [&](WindowObject& w) {
    check_assert(assert);
    w.post(w.window_ranks(checked_group(group)));
  });
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  return window_sync("MPI_Win_start", win, [&](WindowObject& w) {
    check_assert(assert);
    w.start_access(w.window_ranks(checked_group(group)));
  });
}

int MPI_Win_complete(MPI_Win win) {
  return window_sync("MPI_Win_complete", win, [](WindowObject& w) { w.complete(); });
}

int MPI_Win_wait(MPI_Win win) {
  return window_sync("MPI_Win_wait", win, [](WindowObject& w) { w.wait(); });
}

int MPI_Win_test(MPI_Win win, int* flag) {
  return window_sync("MPI_Win_test", win, [&](WindowObject& w) {
    check_out(flag, "flag");
    *flag = w.test() ? 1 : 0;
  });
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  return target_sync("MPI_Win_lock", rank, win, [&](WindowObject& w, int target) {
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) {
      fail(MPI_ERR_LOCKTYPE, "lock_type " + std::to_string(lock_type));
    }
    check_assert(assert);
    w.lock(lock_type == MPI_LOCK_EXCLUSIVE ? halyard::LockType::kExclusive
                                           : halyard::LockType::kShared,
           target);
  });
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  return target_sync("MPI_Win_unlock", rank, win,
                     [](WindowObject& w, int target) { w.unlock(target); });
}

int MPI_Win_lock_all(int assert, MPI_Win win) {
  return window_sync("MPI_Win_lock_all", win, [&](WindowObject& w) {
    check_assert(assert);
    w.lock_all();
  });
}

int MPI_Win_unlock_all(MPI_Win win) {
  return window_sync("MPI_Win_unlock_all", win, [](WindowObject& w) { w.unlock_all(); });
}

// Operations complete at the target once acknowledged, so local completion is the same wait.
int MPI_Win_flush(int rank, MPI_Win win) {
  return target_sync("MPI_Win_flush", rank, win,
                     [](WindowObject& w, int target) { w.flush(target); });
}

int MPI_Win_flush_local(int rank, MPI_Win win) {
  return target_sync("MPI_Win_flush_local", rank, win,
                     [](WindowObject& w, int target) { w.flush(target); });
}

int MPI_Win_flush_all(MPI_Win win) {
  return window_sync("MPI_Win_flush_all", win, [](WindowObject& w) { w.flush_all(); });
}

int MPI_Win_flush_local_all(MPI_Win win) {
  return window_sync("MPI_Win_flush_local_all", win, [](WindowObject& w) { w.flush_all(); });
}

int MPI_Win_sync(MPI_Win win) {
  return window_sync("MPI_Win_sync", win, [](const WindowObject& w) { w.sync(); });
}

}  // extern "C"
