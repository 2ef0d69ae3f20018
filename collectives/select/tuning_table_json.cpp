#include "collectives/select/tuning_table_json.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "collectives/han/han_config.hpp"
#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "runtime/tuning_file_share.hpp"

namespace halyard::select {

namespace {

using nlohmann::json;

// A problem at a path inside the document ("entries[0].ranges[1].han.smod").
struct TableProblem {
  std::string where;
  std::string problem;
};

[[noreturn]] void problem(const std::string& where, const std::string& what) {
  throw TableProblem{where, what};
}

// A table nests five levels; the limit keeps hostile files from exhausting the stack of whatever
// walks the document (dumping a value into an error message recursed once per level and crashed).
constexpr int kMaxNesting = 32;

// Where the text first nests deeper than kMaxNesting arrays and objects; nullopt if it does not.
std::optional<std::size_t> too_deep_at(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

// A value as shown in an error message: its JSON, cut short.
std::string shown(const json& value) {
  constexpr std::size_t kMaxShown = 80;
  std::string text = value.dump();
  if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "...";
  return text;
}

const json& member(const json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) problem(where, std::string("missing \"") + key + "\"");
  return *it;
}

std::string string_at(const json& value, const std::string& where) {
  if (!value.is_string()) problem(where, "expected a string, got " + shown(value));
  return value.get<std::string>();
}

std::size_t bytes_at(const json& value, const std::string& where) {
  if (value.is_number_unsigned()) return value.get<std::size_t>();
  if (value.is_string()) {
    try {
      return config::parse_bytes(value.get<std::string>(), where);
    } catch (const Error& error) {
      problem(where, error.what());
    }
  }
  problem(where, "expected a byte count (a number >= 0 or \"64K\"), got " + shown(value));
}

int int_at(const json& value, const std::string& where) {
  if (!value.is_number_integer()) problem(where, "expected an integer, got " + shown(value));
  constexpr int kLow = std::numeric_limits<int>::min();
  constexpr int kHigh = std::numeric_limits<int>::max();
  const bool fits = value.is_number_unsigned()
                        ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(kHigh)
                        : value.get<std::int64_t>() >= kLow && value.get<std::int64_t>() <= kHigh;
  if (!fits) {
    problem(where, shown(value) + " is out of range (" + std::to_string(kLow) + " to " +
                       std::to_string(kHigh) + ")");
  }
  return value.get<int>();
}

Collective collective_at(const json& value, const std::string& where) {
  std::string name = string_at(value, where);
  for (std::size_t i = 0; i < kCollectiveCount; ++i) {
    auto c = static_cast<Collective>(i);
    if (name == collective_name(c)) return c;
  }
  problem(where, "'" + name + "' is not a collective");
}

han::Tuning han_at(const json& value, const std::string& where) {
  if (!value.is_object()) problem(where, "expected an object, got " + shown(value));
  han::Tuning t;
  for (const auto& [key, field] : value.items()) {
    const std::string at = where + "." + key;
    if (key == "fs") {
      t.segment_bytes = bytes_at(field, at);
    } else if (key == "imod") {
      t.inter = han::parse_inter_module(string_at(field, at));
      if (!t.inter) problem(at, "expected adapt or base, got " + shown(field));
    } else if (key == "ibalg" || key == "iralg") {
      try {
        auto tree = core::parse_tree_shape(string_at(field, at));
        (key == "ibalg" ? t.inter_bcast_tree : t.inter_reduce_tree) = tree;
      } catch (const Error& error) {
        problem(at, error.what());
      }
    } else if (key == "ibs") {
      t.inter_bcast_segment = bytes_at(field, at);
    } else if (key == "irs") {
      t.inter_reduce_segment = bytes_at(field, at);
    } else if (key == "smod") {
      t.intra = han::parse_intra_module(string_at(field, at));
      if (!t.intra) {
        problem(at, "expected " + han::intra_module_choices() + ", got " + shown(field));
      }
    } else if (key == "N") {
      t.sends_in_flight = int_at(field, at);
    } else if (key == "M") {
      t.recvs_in_flight = int_at(field, at);
    } else {
      problem(at, "unknown HAN field (valid: fs imod ibalg iralg ibs irs smod N M)");
    }
  }
  try {
    han::check_tuning(t);  // rejects what HAN could not run (fs 0, M <= N), as a call would
  } catch (const Error& error) {
    problem(where, error.what());
  }
  return t;
}

SizeRange range_at(Collective collective, const json& value, const std::string& where) {
  if (!value.is_object()) problem(where, "expected an object, got " + shown(value));
  SizeRange range;
  range.min_bytes = bytes_at(member(value, "min_bytes", where), where + ".min_bytes");
  if (auto it = value.find("max_bytes"); it != value.end() && !it->is_null()) {
    range.max_bytes = bytes_at(*it, where + ".max_bytes");
  }
  if (auto it = value.find("sampled_bytes"); it != value.end()) {
    range.sampled_bytes = bytes_at(*it, where + ".sampled_bytes");
  }
  const std::string name = string_at(member(value, "algorithm", where), where + ".algorithm");
  try {
    range.choice = parse_algorithm(collective, name, where + ".algorithm");
  } catch (const Error& error) {
    problem(where + ".algorithm", error.what());
  }
  if (auto it = value.find("segment"); it != value.end()) {
    range.choice.segment_bytes = bytes_at(*it, where + ".segment");
  }
  if (auto it = value.find("han"); it != value.end()) {
    if (range.choice.algorithm != Algorithm::kHan) {
      problem(where + ".han", "HAN settings given for " + name);
    }
    range.choice.han = han_at(*it, where + ".han");
  }
  if (auto it = value.find("predicted_us"); it != value.end() && it->is_number()) {
    range.predicted_us = it->get<double>();
  }
  return range;
}

TableEntry entry_at(const json& value, const std::string& where) {
  if (!value.is_object()) problem(where, "expected an object, got " + shown(value));
  TableEntry entry;
  entry.collective = collective_at(member(value, "collective", where), where + ".collective");
  entry.nodes = int_at(member(value, "nodes", where), where + ".nodes");
  entry.ranks_per_node = int_at(member(value, "ranks_per_node", where), where + ".ranks_per_node");
  const json& ranges = member(value, "ranges", where);
  if (!ranges.is_array()) problem(where + ".ranges", "expected an array");
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    entry.ranges.push_back(
        range_at(entry.collective, ranges[i], where + ".ranges[" + std::to_string(i) + "]"));
  }
  return entry;
}

std::string optional_string(const json& document, const char* key) {
  auto it = document.find(key);
  return it != document.end() && it->is_string() ? it->get<std::string>() : std::string();
}

json han_json(const han::Tuning& t) {
  json out = json::object();
  if (t.segment_bytes) out["fs"] = *t.segment_bytes;
  if (t.inter) out["imod"] = std::string(han::inter_module_name(*t.inter));
  if (t.inter_bcast_tree) out["ibalg"] = std::string(core::tree_shape_name(*t.inter_bcast_tree));
  if (t.inter_reduce_tree) {
    out["iralg"] = std::string(core::tree_shape_name(*t.inter_reduce_tree));
  }
  if (t.inter_bcast_segment) out["ibs"] = *t.inter_bcast_segment;
  if (t.inter_reduce_segment) out["irs"] = *t.inter_reduce_segment;
  if (t.intra) out["smod"] = std::string(han::intra_module_name(*t.intra));
  if (t.sends_in_flight) out["N"] = *t.sends_in_flight;
  if (t.recvs_in_flight) out["M"] = *t.recvs_in_flight;
  return out;
}

}  // namespace

TuningTable parse_tuning_table(const std::string& text, std::string_view source) {
  const std::string prefix = std::string(source) + ": ";
  if (auto at = too_deep_at(text)) {
    throw Error(ErrorCode::kInvalidArgument, prefix + "nested deeper than " +
                                                 std::to_string(kMaxNesting) + " levels (at byte " +
                                                 std::to_string(*at) + ")");
  }
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    throw Error(ErrorCode::kInvalidArgument, prefix + "not valid JSON: " + error.what());
  }
  try {
    if (!document.is_object()) problem("document", "expected a JSON object");
    const std::string format = string_at(member(document, "format", "document"), "format");
    if (format != kTuningFormat) {
      problem("format", "'" + format + "' is not " + std::string(kTuningFormat));
    }
    TuningTable table;
    table.machine = optional_string(document, "machine");
    table.date = optional_string(document, "date");
    table.commit = optional_string(document, "commit");
    table.mode = optional_string(document, "mode");
    const json& entries = member(document, "entries", "document");
    if (!entries.is_array()) problem("entries", "expected an array");
    for (std::size_t i = 0; i < entries.size(); ++i) {
      table.entries.push_back(entry_at(entries[i], "entries[" + std::to_string(i) + "]"));
    }
    validate(table);
    return table;
  } catch (const TableProblem& p) {
    throw Error(ErrorCode::kInvalidArgument, prefix + p.where + ": " + p.problem);
  } catch (const Error& error) {
    throw Error(ErrorCode::kInvalidArgument, prefix + error.what());
  }
}

std::string format_tuning_table(const TuningTable& table) {
  json document;
  document["format"] = std::string(kTuningFormat);
  document["machine"] = table.machine;
  document["date"] = table.date;
  document["commit"] = table.commit;
  document["mode"] = table.mode;
  document["entries"] = json::array();
  for (const TableEntry& entry : table.entries) {
    json e;
    e["collective"] = std::string(collective_name(entry.collective));
    e["nodes"] = entry.nodes;
    e["ranks_per_node"] = entry.ranks_per_node;
    e["ranges"] = json::array();
    for (const SizeRange& range : entry.ranges) {
      json r;
      r["min_bytes"] = range.min_bytes;
      r["max_bytes"] = range.max_bytes ? json(*range.max_bytes) : json(nullptr);
      r["sampled_bytes"] = range.sampled_bytes;
      r["algorithm"] = algorithm_name(range.choice);
      if (range.choice.segment_bytes > 0) r["segment"] = range.choice.segment_bytes;
      if (range.choice.algorithm == Algorithm::kHan) r["han"] = han_json(range.choice.han);
      if (range.predicted_us > 0) r["predicted_us"] = range.predicted_us;
      e["ranges"].push_back(r);
    }
    document["entries"].push_back(e);
  }
  return document.dump(2) + "\n";
}

TuningTable load_tuning_table(const std::string& path) {
  const std::string source = "tuning file '" + path + "'";
  TuningFileText file = read_tuning_file(path);
  if (!file.text) throw Error(ErrorCode::kInvalidArgument, source + ": " + file.problem);
  return parse_tuning_table(*file.text, source);
}

void save_tuning_table(const TuningTable& table, const std::string& path) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << format_tuning_table(table);
    if (!out.flush()) {
      throw Error(ErrorCode::kInvalidArgument, "cannot write tuning file '" + temporary + "'");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw Error(ErrorCode::kInvalidArgument,
                "cannot rename '" + temporary + "' to '" + path + "': " + std::strerror(errno));
  }
}

}  // namespace halyard::select
