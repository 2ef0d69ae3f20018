// Rank-prefixed logging on spdlog. HALYARD_LOG=trace|debug|info|warn|error|off sets the level
// (default warn). Messages look like "[halyard 3/8] warn: ...", so interleaved output of many
// ranks stays readable.
#pragma once

#include <spdlog/spdlog.h>

namespace halyard::log {

// The process-wide logger; created on first use with the level from HALYARD_LOG.
spdlog::logger& logger();

// Puts "rank/size" into every later message; called once the rank is known.
void set_rank(int rank, int size);

template <typename... Args>
void trace(spdlog::format_string_t<Args...> fmt, Args&&... args) {
  logger().trace(fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void debug(spdlog::format_string_t<Args...> fmt, Args&&... args) {
  logger().debug(fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void info(spdlog::format_string_t<Args...> fmt, Args&&... args) {
  logger().info(fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void warn(spdlog::format_string_t<Args...> fmt, Args&&... args) {
  logger().warn(fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void error(spdlog::format_string_t<Args...> fmt, Args&&... args) {
  logger().error(fmt, std::forward<Args>(args)...);
}

}  // namespace halyard::log
