// Reading HALYARD_* environment variables. Every variable Halyard reads goes through these
// helpers, so a malformed value is reported the same way everywhere: an Error naming the
// variable, the value and what would have been accepted. docs/configuration.md lists them all.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace halyard::config {

// The raw value, or nullopt when unset or empty.
std::optional<std::string> env_string(const char* name);

// An integer; throws Error(kInvalidArgument) on anything but an optionally signed decimal.
std::int64_t env_int(const char* name, std::int64_t fallback);

// The longest time a HALYARD_* variable may give, in seconds: one year. A deadline that far
// ahead still fits a steady_clock in nanoseconds (10^10 s would overflow it and fire at once).
inline constexpr std::int64_t kMaxEnvSeconds = 365LL * 24 * 3600;

// A number of seconds from `minimum` to kMaxEnvSeconds; throws Error(kInvalidArgument) naming
// the variable, the value and the accepted range for anything else (a huge value included).
std::chrono::seconds env_seconds(const char* name, std::int64_t fallback, std::int64_t minimum);

// A byte count with an optional K/M/G suffix (powers of 1024), e.g. "64K", "4M".
std::size_t env_bytes(const char* name, std::size_t fallback);

// A byte count parsed from text with the same rules as env_bytes; `what` names the source in
// the error message.
std::size_t parse_bytes(std::string_view text, std::string_view what);

// The shortest text parse_bytes reads back as `bytes`: "64K", "4M", "1000".
std::string format_bytes(std::size_t bytes);

// One of `choices`, compared case-insensitively and returned in lower case; throws an Error
// listing the choices otherwise.
std::string env_choice(const char* name, std::span<const std::string_view> choices,
                       std::string_view fallback);
inline std::string env_choice(const char* name, std::initializer_list<std::string_view> choices,
                              std::string_view fallback) {
  return env_choice(name, std::span<const std::string_view>(choices.begin(), choices.size()),
                    fallback);
}

}  // namespace halyard::config
