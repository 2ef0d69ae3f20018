// MPI calls that make, describe and free windows (window_object.hpp): the four flavors, shared
// queries, dynamic attach / detach, attributes, names, info and error handlers.
#include <mpi.h>

#include <cstring>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/attributes.hpp"
#include "shim/errhandler_table.hpp"
#include "shim/group_table.hpp"
#include "shim/text_output.hpp"
#include "shim/window_table.hpp"

using namespace halyard::mpi_shim;

namespace {

// A collective window creation over `comm`: every flavor's checks and its handle.
int create_window(const char* call, MPI_Comm comm, int flavor, void* base, MPI_Aint size,
                  int disp_unit, MPI_Info info, void* baseptr, MPI_Win* win) {
  return guarded(call, comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(win, "win");
    if (size < 0) fail(MPI_ERR_SIZE, "size " + std::to_string(size) + " is negative");
    if (disp_unit <= 0) {
      fail(MPI_ERR_DISP, "disp_unit " + std::to_string(disp_unit) + " is not positive");
    }
    if (baseptr != nullptr || flavor == MPI_WIN_FLAVOR_ALLOCATE ||
        flavor == MPI_WIN_FLAVOR_SHARED) {
      check_out(baseptr, "baseptr");
    }
    halyard::EventLoop::Access access(shim_state().runtime().loop());
    std::unique_ptr<WindowObject> window;
    try {
      window = std::make_unique<WindowObject>(entry.comm, flavor, base, size, disp_unit,
                                              hints_from(info));
    } catch (const halyard::WindowError& e) {
      throw mpi_error_of(e);
    }
    if (baseptr != nullptr) *static_cast<void**>(baseptr) = window->base();
    *win = add_window(std::move(window));
  });
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win* win) {
  return create_window("MPI_Win_create", comm, MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info,
                       nullptr, win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                     MPI_Win* win) {
  return create_window("MPI_Win_allocate", comm, MPI_WIN_FLAVOR_ALLOCATE, nullptr, size, disp_unit,
                       info, baseptr, win);
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void* baseptr, MPI_Win* win) {
  return create_window("MPI_Win_allocate_shared", comm, MPI_WIN_FLAVOR_SHARED, nullptr, size,
                       disp_unit, info, baseptr, win);
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return create_window("MPI_Win_create_dynamic", comm, MPI_WIN_FLAVOR_DYNAMIC, nullptr, 0, 1, info,
                       nullptr, win);
}

int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  return window_call("MPI_Win_shared_query", win, [&] {
    WindowObject& window = checked_window(win);
    check_out(size, "size");
    check_out(disp_unit, "disp_unit");
    check_out(baseptr, "baseptr");
    if (window.flavor() != halyard::WindowFlavor::kShared) {
      fail(MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_allocate_shared");
    }
    if (rank == MPI_PROC_NULL) {  // the first rank with memory, or the first at all
      rank = 0;
      while (rank + 1 < window.size() && window.peer(rank).size == 0) ++rank;
    }
    check_peer(rank, window.comm(), "rank", false);
    const halyard::WindowPeer& peer = window.peer(rank);
    *size = peer.size;
    *disp_unit = peer.disp_unit;
    *static_cast<void**>(baseptr) = peer.mapped;
  });
}

int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  return window_call("MPI_Win_attach", win, [&] {
    if (size < 0) fail(MPI_ERR_SIZE, "size " + std::to_string(size) + " is negative");
    checked_window(win).attach(base, size);
  });
}

int MPI_Win_detach(MPI_Win win, const void* base) {
  return window_call("MPI_Win_detach", win, [&] { checked_window(win).detach(base); });
}

int MPI_Win_free(MPI_Win* win) {
  return window_call("MPI_Win_free", win != nullptr ? *win : MPI_WIN_NULL, [&] {
    check_out(win, "win");
    WindowObject& window = checked_window(*win);
    // Before the window goes, as MPI_Comm_free does for a communicator's (a callback may still
    // use the window).
    delete_all_attributes(*win, window.attributes);
    window.free();
    remove_window(*win);
    *win = MPI_WIN_NULL;
  });
}

int MPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  return window_call("MPI_Win_get_group", win, [&] {
    const WindowObject& window = checked_window(win);
    check_out(group, "group");
    *group = add_group(members_of(window.comm()));
  });
}

int MPI_Win_get_attr(MPI_Win win, int win_keyval, void* attribute_val, int* flag) {
  return window_call("MPI_Win_get_attr", win, [&] {
    WindowObject& window = checked_window(win);
    check_out(attribute_val, "attribute_val");
    check_out(flag, "flag");
    void* value = nullptr;
    switch (win_keyval) {
      case MPI_WIN_BASE:
        value = window.base();
        break;
      case MPI_WIN_SIZE:
        value = &window.attribute_values.size;
        break;
      case MPI_WIN_DISP_UNIT:
        value = &window.attribute_values.disp_unit;
        break;
      case MPI_WIN_CREATE_FLAVOR:
        value = &window.attribute_values.flavor;
        break;
      case MPI_WIN_MODEL:
        value = &window.attribute_values.model;
        break;
      default:
        *flag = get_attribute(AttributeHost::kWin, window.attributes, win_keyval,
                              static_cast<void**>(attribute_val));
        return;
    }
    *static_cast<void**>(attribute_val) = value;
    *flag = 1;
  });
}

int MPI_Win_set_name(MPI_Win win, const char* win_name) {
  return window_call("MPI_Win_set_name", win, [&] {
    WindowObject& window = checked_window(win);
    check_out(win_name, "win_name");
    window.name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  });
}

int MPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  return window_call("MPI_Win_get_name", win, [&] {
    const WindowObject& window = checked_window(win);
    check_out(win_name, "win_name");
    check_out(resultlen, "resultlen");
    *resultlen = copy_text(window.name, win_name, MPI_MAX_OBJECT_NAME);
  });
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info) {
  return window_call("MPI_Win_set_info", win,
                     [&] { checked_window(win).info = info_entries(info); });
}

int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  return window_call("MPI_Win_get_info", win, [&] {
    const WindowObject& window = checked_window(win);
    check_out(info_used, "info_used");
    *info_used = add_info(window.info);
  });
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function* win_errhandler_fn,
                              MPI_Errhandler* errhandler) {
  // MPI_Win and MPI_Comm are both ints, so a window handler has a communicator handler's type.
  return MPI_Comm_create_errhandler(win_errhandler_fn, errhandler);
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  return window_call("MPI_Win_set_errhandler", win, [&] {
    WindowObject& window = checked_window(win);
    check_errhandler(errhandler);
    window.errhandler = errhandler;
  });
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  return window_call("MPI_Win_get_errhandler", win, [&] {
    const WindowObject& window = checked_window(win);
    check_out(errhandler, "errhandler");
    *errhandler = window.errhandler;
  });
}

int MPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  return window_call("MPI_Win_call_errhandler", win, [&] {
    const WindowObject& window = checked_window(win);
    // MPI returns MPI_SUCCESS when the handler returns, whatever it did with the code.
    apply_handler("MPI_Win_call_errhandler", window.errhandler, static_cast<MPI_Comm>(win),
                  errorcode, "error code " + std::to_string(errorcode));
  });
}

}  // extern "C"
