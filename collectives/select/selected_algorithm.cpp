#include "collectives/select/selected_algorithm.hpp"

#include <algorithm>
#include <cctype>

#include "collectives/select/catalog.hpp"
#include "runtime/support/error.hpp"

namespace halyard::select {

namespace {

bool same_algorithm(const core::AlgorithmEntry& entry, const SelectedAlgorithm& selected) {
  return entry.algorithm == selected.algorithm &&
         (!core::has_tree(entry.algorithm) || entry.tree == selected.tree);
}

}  // namespace

std::string algorithm_name(const SelectedAlgorithm& selected) {
  for (const core::AlgorithmEntry& entry : catalog()) {
    if (same_algorithm(entry, selected)) return std::string(entry.name);
  }
  return "invalid";
}

std::vector<std::string> valid_algorithm_names(Collective collective) {
  std::vector<std::string> names;
  for (const core::AlgorithmEntry& entry : catalog()) {
    if (entry.collective == collective && entry.supports.nameable) {
      names.emplace_back(entry.name);
    }
  }
  return names;
}

SelectedAlgorithm parse_algorithm(Collective collective, std::string_view name,
                                  std::string_view source) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  for (const core::AlgorithmEntry& entry : catalog()) {
    if (entry.collective == collective && entry.supports.nameable && entry.name == lower) {
      return SelectedAlgorithm{entry.algorithm, entry.tree};
    }
  }
  std::string message = std::string(source) + "=" + std::string(name) + " is not an algorithm of " +
                        std::string(collective_name(collective)) + "; valid names:";
  for (const std::string& valid : valid_algorithm_names(collective)) message += " " + valid;
  throw Error(ErrorCode::kInvalidArgument, message);
}

}  // namespace halyard::select
