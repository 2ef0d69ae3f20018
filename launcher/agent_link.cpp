#include "launcher/agent_link.hpp"

#include <signal.h>
#include <unistd.h>

#include <boost/asio/write.hpp>

#include "launcher/environment.hpp"
#include "launcher/program_lookup.hpp"
#include "launcher/rank_spawner.hpp"
#include "launcher/usage_error.hpp"
#include "runtime/support/log.hpp"

namespace halyard::launcher {

namespace asio = boost::asio;

AgentLink::AgentLink(asio::io_context& io, std::string host, std::vector<std::string> command,
                     Events events)
    : io_(io), host_(std::move(host)), command_(std::move(command)), events_(std::move(events)) {}

void AgentLink::start(const AgentSpec& spec) {
  std::string path = command_.front();
  try {
    path = resolve_program(command_.front());
  } catch (const UsageError&) {
    // Left as given: the exec fails in the child, which reports it and exits 127.
  }
  RankCommand command{path,         command_, to_assignments(current_environment()),
                      std::nullopt, true,     ""};
  SpawnedRank spawned = spawn_rank(command);
  pid_ = spawned.pid;
  input_.emplace(io_, spawned.stdin_fd);
  log::debug("hlaunch: agent for host {} started as pid {}", host_, pid_);
  frames_.emplace(io_, spawned.stdout_fd);
  stdout_open_ = true;
  stderr_open_ = true;
  errors_ = std::make_shared<OutputForwarder>(io_, spawned.stderr_fd, STDERR_FILENO, "", [this] {
    stderr_open_ = false;
    maybe_done();
  });
  errors_->start();
  send(encode_spec(spec));
  read_frames();
}

void AgentLink::read_frames() {
  frames_->async_read_some(
      asio::buffer(buffer_), [this](boost::system::error_code ec, std::size_t n) {
        if (!stdout_open_) return;
        try {
          decoder_.feed({buffer_.data(), n});
          while (auto frame = decoder_.next()) {
            if (frame->kind == AgentFrameKind::kOutput) {
              events_.on_output(decode_output(frame->payload));
            } else if (frame->kind == AgentFrameKind::kRankExit) {
              events_.on_rank_exit(decode_rank_exit(frame->payload));
            }
          }
        } catch (const std::exception& e) {
          write_fully(STDERR_FILENO, "hlaunch: agent for host '" + host_ + "': " + e.what() + "\n");
          kill();
          stdout_ended();
          return;
        }
        if (ec) {
          stdout_ended();
          return;
        }
        read_frames();
      });
}

void AgentLink::stdout_ended() {
  if (!stdout_open_) return;
  stdout_open_ = false;
  boost::system::error_code ignored;
  frames_->close(ignored);
  maybe_done();
}

void AgentLink::signal(int sig) {
  if (!process_ended()) send(encode_signal(sig));
}

void AgentLink::send(std::string frame) {
  if (!input_ || !input_->is_open()) return;
  outbox_.push_back(std::move(frame));
  if (outbox_.size() == 1) write_next();
}

void AgentLink::write_next() {
  asio::async_write(*input_, asio::buffer(outbox_.front()),
                    [this](boost::system::error_code ec, std::size_t) {
                      if (ec) {
                        // The agent's channel is gone; its end shows up as its process ending.
                        outbox_.clear();
                        return;
                      }
                      outbox_.pop_front();
                      if (!outbox_.empty()) write_next();
                    });
}

void AgentLink::close_input() {
  outbox_.clear();
  if (!input_) return;
  boost::system::error_code ignored;
  input_->close(ignored);
}

void AgentLink::kill() {
  if (pid_ > 0 && !process_ended()) ::kill(-pid_, SIGKILL);
}

void AgentLink::close_streams() {
  stdout_ended();
  if (errors_) errors_->close();
}

void AgentLink::on_process_ended(int status) {
  status_ = status;
  // Nothing more to tell it; closing stdin also tells a still-connected remote agent (ssh
  // keeps running while the session lives) that hlaunch is done with it.
  close_input();
  maybe_done();
}

void AgentLink::maybe_done() {
  if (done_ || !status_ || stdout_open_ || stderr_open_) return;
  done_ = true;
  events_.on_done();
}

}  // namespace halyard::launcher
