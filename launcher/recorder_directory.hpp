// The directory where the ranks of a local job keep their flight recorders
// (runtime/flight_recorder.hpp), and the reading of those recorders.
//
// hlaunch makes a private directory (mode 0700, under TMPDIR or /tmp), names it to the ranks in
// HALYARD_RECORDER_DIR and removes it when the job ends. Reading needs nothing from the ranks:
// a rank that is stopped, computing or wedged is read like one waiting in a collective.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/flight_recorder_layout.hpp"

namespace halyard::launcher {

// What hlaunch knows of one rank when it reads the recorders.
struct RankRecord {
  int rank = -1;
  bool has_recorder = false;           // false: the rank made no recorder (yet)
  char process_state = '?';            // /proc/PID/stat's state: R, S, D, T (stopped), Z; '?' gone
  std::vector<recorder::Call> calls;   // oldest first; only consistent copies
  std::uint64_t waits_for_record = 0;  // the watchdog's call, 0 if it never gave up
  std::vector<int> waits_for;          // the world ranks that call still waited for
};

class RecorderDirectory {
 public:
  // Creates the directory; throws Error(kInternal) naming the reason when it cannot.
  RecorderDirectory();
  ~RecorderDirectory();  // removes the ranks' files and the directory
  RecorderDirectory(const RecorderDirectory&) = delete;
  RecorderDirectory& operator=(const RecorderDirectory&) = delete;

  const std::string& path() const { return path_; }

  // Reads rank `rank`'s recorder; `pid` (or -1) is the process it runs as, for its state.
  RankRecord read(int rank, pid_t pid) const;

 private:
  std::string path_;
};

}  // namespace halyard::launcher
