// A rank's control connection to hlaunch's bootstrap server (Boost.Asio underneath).
//
// The control plane only: key-value exchange for transport addresses and topology, fences,
// barriers, abort, and notices from hlaunch (a peer failed, the job is ending). Data never
// flows here.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/bootstrap/launch_info.hpp"

namespace halyard {

// A message hlaunch pushes to every rank outside any request.
struct ControlNotice {
  enum class Kind { kPeerFailed, kJobAbort };
  Kind kind;
  int rank = -1;        // the rank concerned (the failed or aborting one)
  int code = 0;         // its exit status or abort code
  std::string message;  // human-readable, e.g. "rank 3 exited with status 3"
};

class BootstrapClient {
 public:
  virtual ~BootstrapClient() = default;

  // Connects and authenticates with the job token. Throws Error(kBootstrap) with the reason
  // (server unreachable, token refused) when it cannot.
  static std::unique_ptr<BootstrapClient> connect(const LaunchInfo& info);

  virtual const LaunchInfo& info() const = 0;

  // Publishes key=value for the whole job. Keys are job-global; putting a key twice is an error.
  virtual void put(std::string_view key, std::string_view value) = 0;
  // Returns the value of `key`, waiting until some rank has put it. Throws Error(kTimeout) after
  // HALYARD_BOOTSTRAP_TIMEOUT seconds (default 60) and Error(kPeerFailed) if the job is ending.
  virtual std::string get(std::string_view key) = 0;
  // Collective over all ranks: every put made before the fence is visible to every get after it.
  virtual void fence() = 0;
  // Collective over all ranks: returns once every rank has entered.
  virtual void barrier() = 0;
  // Tells hlaunch that this rank ends on purpose; the last call before the connection closes
  // (Runtime::finalize makes it). A rank that connected and then exits, or closes the
  // connection, without it is a failure of the job (docs/reliability.md). In-process
  // bootstraps (tests) have nobody to tell.
  virtual void finalize() {}
  // Ends the whole job: hlaunch prints `message`, ends every rank and exits with `code`.
  [[noreturn]] virtual void abort(int code, std::string_view message) = 0;

  // Called from the client's background reader thread when hlaunch sends a notice; the callback
  // must only record it (set a flag, write an eventfd) and return. Replacing it (an empty one
  // detaches) waits for a callback running on that thread, so afterwards the old one never runs.
  virtual void on_notice(std::function<void(const ControlNotice&)> callback) = 0;
};

}  // namespace halyard
