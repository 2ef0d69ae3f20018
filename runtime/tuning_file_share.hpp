// HALYARD_TUNING_FILE as a whole job sees it (issue 27, item 9). Ranks that read different tables,
// or a table that loads on some ranks only, choose different algorithms for one call: a deadlock.
// So in a job started by hlaunch rank 0 alone reads the file at start-up and shares its bytes (or
// why it could not read them) through the bootstrap; every rank parses the same text and all take
// the table, or all keep the built-in rules, and only rank 0 reports the problem. The runtime
// reads bytes only: collectives/select owns the format.
#pragma once

#include <optional>
#include <string>

namespace halyard {

class BootstrapClient;

struct TuningFileText {
  std::string path;                 // as rank 0 named it
  std::optional<std::string> text;  // the file's bytes; nullopt when it could not be read
  std::string problem;              // why not, when text is nullopt
  bool reporter = true;             // whether this process reports a problem (rank 0, or alone)
};

// Reads `path` here, alone: the bytes, or the problem ("cannot be read: No such file ...").
TuningFileText read_tuning_file(const std::string& path);

// Rank 0 puts its HALYARD_TUNING_FILE's bytes (or the reason it has none) under one key, every
// other rank gets them; from then on tuning_file_text() answers with rank 0's file in this
// process. Every rank of a job calls it once, at start-up, whether the variable is set or not.
void share_tuning_file(BootstrapClient& bootstrap, int rank);

// The table text this process must use: the job's (share_tuning_file), else HALYARD_TUNING_FILE
// read here (a process without a job); nullopt when no file is named.
std::optional<TuningFileText> tuning_file_text();

}  // namespace halyard
