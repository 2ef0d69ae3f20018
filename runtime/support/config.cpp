#include "runtime/support/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "runtime/support/error.hpp"

namespace halyard::config {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

[[noreturn]] void reject(std::string_view what, std::string_view value, std::string_view wanted) {
  throw Error(ErrorCode::kInvalidArgument, std::string(what) + "='" + std::string(value) +
                                               "' is not valid: expected " + std::string(wanted));
}

}  // namespace

std::optional<std::string> env_string(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

std::int64_t env_int(const char* name, std::int64_t fallback) {
  auto v = env_string(name);
  if (!v) return fallback;
  std::int64_t out = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc() || end != v->data() + v->size()) reject(name, *v, "an integer");
  return out;
}

std::chrono::seconds env_seconds(const char* name, std::int64_t fallback, std::int64_t minimum) {
  auto v = env_string(name);
  if (!v) return std::chrono::seconds(fallback);
  std::int64_t seconds = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), seconds);
  if (ec != std::errc() || end != v->data() + v->size() || seconds < minimum ||
      seconds > kMaxEnvSeconds) {
    reject(name, *v,
           "a number of seconds from " + std::to_string(minimum) + " to " +
               std::to_string(kMaxEnvSeconds) + " (one year)");
  }
  return std::chrono::seconds(seconds);
}

std::size_t parse_bytes(std::string_view text, std::string_view what) {
  std::uint64_t number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end == text.data())
    reject(what, text, "a byte count like 4096, 64K, 4M or 1G");
  std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  std::string s = lower(suffix);
  int shift = 0;
  if (s.empty() || s == "b") {
    shift = 0;
  } else if (s == "k" || s == "kb" || s == "kib") {
    shift = 10;
  } else if (s == "m" || s == "mb" || s == "mib") {
    shift = 20;
  } else if (s == "g" || s == "gb" || s == "gib") {
    shift = 30;
  } else {
    reject(what, text, "a byte count like 4096, 64K, 4M or 1G");
  }
  if (shift > 0 && number > (std::uint64_t{1} << (63 - shift)))
    reject(what, text, "a smaller byte count");
  return static_cast<std::size_t>(number << shift);
}

std::size_t env_bytes(const char* name, std::size_t fallback) {
  auto v = env_string(name);
  return v ? parse_bytes(*v, name) : fallback;
}

std::string env_choice(const char* name, std::span<const std::string_view> choices,
                       std::string_view fallback) {
  auto v = env_string(name);
  if (!v) return std::string(fallback);
  std::string got = lower(*v);
  std::string list;
  for (auto c : choices) {
    if (got == c) return got;
    if (!list.empty()) list += "|";
    list += c;
  }
  reject(name, *v, "one of " + list);
}

std::string format_bytes(std::size_t bytes) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + "M";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + "K";
  return std::to_string(bytes);
}

}  // namespace halyard::config
