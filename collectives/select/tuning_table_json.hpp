// The decision table's file format (docs/tuning.md has an example):
//   { "format": "halyard-tuning-1", "machine": ..., "date": ..., "commit": ..., "mode": ...,
//     "entries": [ { "collective": "bcast", "nodes": 2, "ranks_per_node": 4,
//                    "ranges": [ { "min_bytes": 0, "max_bytes": 90509, "sampled_bytes": 65536,
//                                  "algorithm": "han",
//                                  "han": { "fs": 65536, "imod": "adapt", "ibalg": "binary",
//                                           "ibs": 16384, "smod": "cma", "N": 2, "M": 4 },
//                                  "predicted_us": 812.5 }, ... ] } ] }
// "max_bytes": null (or absent) means no upper bound; "segment" (bytes) goes with adapt:<tree>;
// every "han" field is optional (fs, imod, ibalg, iralg, ibs, irs, smod, N, M).
#pragma once

#include <string>
#include <string_view>

#include "collectives/select/tuning_table.hpp"

namespace halyard::select {

inline constexpr std::string_view kTuningFormat = "halyard-tuning-1";

// Parses and validates a table; throws Error(kInvalidArgument) "<source>: <where>: <problem>"
// (source names the file, or what the text came from).
TuningTable parse_tuning_table(const std::string& text, std::string_view source);
std::string format_tuning_table(const TuningTable& table);

// Reads `path`; a missing or unreadable file throws like a malformed one, naming the file.
TuningTable load_tuning_table(const std::string& path);
// Writes atomically enough for one writer: a temporary file renamed over `path`.
void save_tuning_table(const TuningTable& table, const std::string& path);

}  // namespace halyard::select
