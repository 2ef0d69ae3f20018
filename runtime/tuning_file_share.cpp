#include "runtime/tuning_file_share.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/control_messages.hpp"
#include "runtime/support/config.hpp"

namespace halyard {
namespace {

// Rank 0's key: "/0" makes it a key of rank 0's own.
constexpr const char* kKey = "tuning-file/0";
// The value: one kind letter, the path, a newline, then the text or the problem.
constexpr char kUnset = 'U';
constexpr char kText = 'T';
constexpr char kProblem = 'P';
// Room in a bootstrap value for the kind and the path.
constexpr std::size_t kHeaderRoom = 8 * 1024;

struct SharedSlot {
  std::mutex mutex;
  bool shared = false;
  std::optional<TuningFileText> file;
};

SharedSlot& slot() {
  static SharedSlot s;
  return s;
}

}  // namespace

TuningFileText read_tuning_file(const std::string& path) {
  TuningFileText file{path, std::nullopt, {}, true};
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    file.problem = std::string("cannot be read: ") + std::strerror(errno);
    return file;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) {
    file.problem = std::string("cannot be read: ") + std::strerror(errno);
    return file;
  }
  file.text = std::move(text).str();
  return file;
}

namespace {

std::optional<TuningFileText> read_here() {
  auto path = config::env_string("HALYARD_TUNING_FILE");
  if (!path) return std::nullopt;
  return read_tuning_file(*path);
}

std::string encode(const std::optional<TuningFileText>& file) {
  if (!file) return std::string(1, kUnset);
  if (file->path.size() > kHeaderRoom / 2) {
    return std::string(1, kProblem) + file->path.substr(0, kHeaderRoom / 2) +
           "\nits path is too long to share";
  }
  const std::string head = file->path + "\n";
  if (!file->text) return kProblem + head + file->problem;
  if (file->text->size() > control::kMaxValueBytes - kHeaderRoom) {
    return kProblem + head + "is larger than " +
           std::to_string((control::kMaxValueBytes - kHeaderRoom) / 1024) +
           " KiB, the most the bootstrap shares";
  }
  return kText + head + *file->text;
}

std::optional<TuningFileText> decode(const std::string& value, bool reporter) {
  if (value.empty() || value[0] == kUnset) return std::nullopt;
  const auto newline = value.find('\n');
  TuningFileText file;
  file.reporter = reporter;
  file.path = value.substr(1, newline - 1);
  std::string rest = newline == std::string::npos ? std::string() : value.substr(newline + 1);
  if (value[0] == kText) {
    file.text = std::move(rest);
  } else {
    file.problem = std::move(rest);
  }
  return file;
}

}  // namespace

void share_tuning_file(BootstrapClient& bootstrap, int rank) {
  std::optional<TuningFileText> file;
  if (rank == 0) {
    file = read_here();
    bootstrap.put(kKey, encode(file));
    file = decode(encode(file), true);  // what the others get: an oversized file is a problem
  } else {
    file = decode(bootstrap.get(kKey), false);
  }
  std::lock_guard lock(slot().mutex);
  slot().shared = true;
  slot().file = std::move(file);
}

std::optional<TuningFileText> tuning_file_text() {
  {
    std::lock_guard lock(slot().mutex);
    if (slot().shared) return slot().file;
  }
  return read_here();
}

}  // namespace halyard
