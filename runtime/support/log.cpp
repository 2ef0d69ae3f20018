#include "runtime/support/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>

#include <memory>
#include <string>

#include "runtime/support/config.hpp"

namespace halyard::log {
namespace {

std::shared_ptr<spdlog::logger> make_logger() {
  // stderr, unbuffered per line, so hlaunch can forward each line as it is written.
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto l = std::make_shared<spdlog::logger>("halyard", sink);
  std::string level =
      config::env_choice("HALYARD_LOG", {"trace", "debug", "info", "warn", "error", "off"}, "warn");
  l->set_level(spdlog::level::from_str(level));
  l->set_pattern("[halyard] %l: %v");
  l->flush_on(spdlog::level::trace);
  return l;
}

std::shared_ptr<spdlog::logger>& instance() {
  static std::shared_ptr<spdlog::logger> l = make_logger();
  return l;
}

}  // namespace

spdlog::logger& logger() {
  return *instance();
}

void set_rank(int rank, int size) {
  instance()->set_pattern("[halyard " + std::to_string(rank) + "/" + std::to_string(size) +
                          "] %l: %v");
}

}  // namespace halyard::log
