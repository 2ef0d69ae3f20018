// The handles of windows (MPI_Win) and the guard of window calls: a failure goes to the
// window's error handler (MPI_ERRORS_ARE_FATAL until MPI_Win_set_errhandler; MPI_COMM_WORLD's
// for a handle that names no window), and a user handler receives the window's handle. Every window
// call holds the event loop while it runs (EventLoop::Access): window state is shared with the
// handlers that the progress thread runs, and this is the one place where window calls lock.
#pragma once

#include <mpi.h>

#include <memory>
#include <type_traits>

#include "runtime/event_loop.hpp"
#include "shim/call_guard.hpp"
#include "shim/window_object.hpp"

namespace halyard::mpi_shim {

// MPI_ERR_WIN for MPI_WIN_NULL, a freed window or a handle of another kind.
WindowObject& checked_window(MPI_Win win);
// Null when `win` names no live window.
WindowObject* find_window(MPI_Win win);
MPI_Win add_window(std::unique_ptr<WindowObject> window);
void remove_window(MPI_Win win);

// MPI_ERR_WIN for a handle that names no window (the message checked_window() gives).
[[noreturn]] void no_window(MPI_Win win);

// Runs `body` for a call on `win`: body() when it takes no argument (it checks the handle
// itself, if it must), body(window) with the live window otherwise (MPI_ERR_WIN when there is
// none): the window is looked up once a call.
template <typename Body>
int window_call(const char* call, MPI_Win win, Body&& body) {
  return guarded(call, static_cast<MPI_Comm>(win), [&] {
    EventLoop::Access access(shim_state().runtime().loop());
    WindowObject* window = find_window(win);
    const MPI_Errhandler handler = window != nullptr ? window->errhandler : MPI_ERRHANDLER_NULL;
    try {
      if constexpr (std::is_invocable_v<Body, WindowObject&>) {
        if (window == nullptr) no_window(win);
        body(*window);
      } else {
        body();
      }
    } catch (MpiError& e) {
      if (e.errhandler == MPI_ERRHANDLER_NULL) e.errhandler = handler;
      throw;
    } catch (const WindowError& e) {
      MpiError error = mpi_error_of(e);
      error.errhandler = handler;
      throw error;
    } catch (const Error& e) {
      throw MpiError{error_class_of(e.code()), e.what(), handler};
    }
  });
}

}  // namespace halyard::mpi_shim
