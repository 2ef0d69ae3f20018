#include "launcher/bootstrap_service.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "launcher/bootstrap_server.hpp"
#include "launcher/job.hpp"
#include "launcher/job_secrets.hpp"
#include "launcher/listen_address.hpp"
#include "launcher/output_forwarder.hpp"
#include "launcher/usage_error.hpp"

namespace halyard::launcher {
namespace {

// The exports carry the job token: they go to a file only this user can read, created here so
// that nobody can have opened it before (O_EXCL, no symlink followed).
void write_env_file(const std::string& path, const std::string& exports) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw UsageError("cannot create --env-file '" + path + "': " + std::strerror(errno) +
                     (errno == EEXIST ? " (it must not exist yet)" : ""));
  }
  write_fully(fd, exports);
  ::close(fd);
}

}  // namespace

int serve_bootstrap(const LaunchOptions& options) {
  namespace asio = boost::asio;
  asio::io_context io;
  const std::string token = make_job_token();
  const std::string job_id = make_job_id();
  int exit_code = 0;
  asio::signal_set stop(io, SIGINT, SIGTERM, SIGHUP);
  asio::steady_timer timeout(io);
  BootstrapServer server(
      io, options.num_ranks, token, [&](int rank, int code, const std::string& message) {
        write_fully(STDERR_FILENO, "hlaunch: rank " + std::to_string(rank) +
                                       " aborted the job with code " + std::to_string(code) +
                                       (message.empty() ? "" : ": " + message) + "\n");
        exit_code = (code & 0xff) == 0 ? 1 : (code & 0xff);
        io.stop();
      });
  // The ranks are no children of ours: a rank whose connection closes without the finalize
  // handshake (it exited, was killed, or its host went away) is the job's failure. The others
  // get the notice and a moment to receive it.
  asio::steady_timer notice_grace(io);
  server.on_unfinalized_close([&](int rank) {
    if (exit_code != 0) return;
    std::string what = "rank " + std::to_string(rank) +
                       " exited without finalizing (its bootstrap connection closed)";
    write_fully(STDERR_FILENO, "hlaunch: " + what + "\n");
    exit_code = kExitUnfinalized;
    server.notify_all({ControlNotice::Kind::kPeerFailed, rank, kExitUnfinalized, what});
    notice_grace.expires_after(std::chrono::milliseconds(500));
    notice_grace.async_wait([&](boost::system::error_code) { io.stop(); });
  });
  ::signal(SIGPIPE, SIG_IGN);
  // The ranks run on other nodes: loopback is only right when the user says so.
  server.start(choose_listen_address(options.bootstrap_address, /*remote_hosts=*/true));
  const std::string exports = "export HALYARD_BOOTSTRAP_ADDR=" + server.address() +
                              "\nexport HALYARD_JOB_TOKEN=" + token +
                              "\nexport HALYARD_JOB_ID=" + job_id +
                              "\nexport HALYARD_SIZE=" + std::to_string(options.num_ranks) + "\n";
  if (options.env_file.empty()) {
    write_fully(STDOUT_FILENO, exports);
  } else {
    write_env_file(options.env_file, exports);
  }
  stop.async_wait([&](boost::system::error_code ec, int) {
    if (!ec) io.stop();
  });
  if (options.timeout_s > 0) {
    timeout.expires_after(std::chrono::seconds(options.timeout_s));
    timeout.async_wait([&](boost::system::error_code ec) {
      if (ec) return;
      write_fully(STDERR_FILENO, "hlaunch: bootstrap service timed out after " +
                                     std::to_string(options.timeout_s) + " s\n");
      exit_code = kExitTimeout;
      io.stop();
    });
  }
  io.run();
  server.stop();
  return exit_code;
}

}  // namespace halyard::launcher
