#include "collectives/select/selected_algorithm.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "runtime/error.hpp"

namespace halyard::select {

namespace {

struct BaseName {
  Algorithm algorithm;
  std::string_view name;
};

constexpr std::array<BaseName, 8> kBaseNames{{
    {Algorithm::kLinear, "linear"},
    {Algorithm::kBinomial, "binomial"},
    {Algorithm::kRing, "ring"},
    {Algorithm::kRecursiveDoubling, "recursive_doubling"},
    {Algorithm::kRabenseifner, "rabenseifner"},
    {Algorithm::kBruck, "bruck"},
    {Algorithm::kDissemination, "dissemination"},
    {Algorithm::kPairwise, "pairwise"},
}};

constexpr std::array<std::pair<adapt::TreeShape, std::string_view>, 5> kTreeNames{{
    {adapt::TreeShape::kChain, "chain"},
    {adapt::TreeShape::kBinary, "binary"},
    {adapt::TreeShape::kBinomial, "binomial"},
    {adapt::TreeShape::kKnomial, "knomial"},
    {adapt::TreeShape::kTopo, "topo"},
}};

// The base algorithms each collective has; adapt and han are added per collective below.
std::vector<Algorithm> base_algorithms(Collective collective) {
  switch (collective) {
    case Collective::kBcast:
    case Collective::kReduce:
      return {Algorithm::kLinear, Algorithm::kBinomial};
    case Collective::kAllreduce:
      return {Algorithm::kRing, Algorithm::kRecursiveDoubling, Algorithm::kRabenseifner};
    case Collective::kAllgather:
      return {Algorithm::kRing, Algorithm::kBruck};
    case Collective::kBarrier:
      return {Algorithm::kDissemination};
    case Collective::kGather:
    case Collective::kScatter:
      return {Algorithm::kLinear};
    case Collective::kAlltoall:
      return {Algorithm::kPairwise, Algorithm::kBruck};
  }
  return {};
}

bool has_adapt(Collective c) {
  return c == Collective::kBcast || c == Collective::kReduce;
}

// The collectives HAN has pipelines for (collectives/han).
bool has_han(Collective c) {
  return c == Collective::kBcast || c == Collective::kReduce || c == Collective::kAllreduce ||
         c == Collective::kAllgather || c == Collective::kBarrier;
}

std::string_view base_name(Algorithm algorithm) {
  for (const BaseName& entry : kBaseNames) {
    if (entry.algorithm == algorithm) return entry.name;
  }
  return "invalid";
}

std::string_view tree_name(adapt::TreeShape tree) {
  for (const auto& [shape, name] : kTreeNames) {
    if (shape == tree) return name;
  }
  return "invalid";
}

}  // namespace

std::string_view collective_name(Collective collective) {
  switch (collective) {
    case Collective::kBcast:
      return "bcast";
    case Collective::kReduce:
      return "reduce";
    case Collective::kAllreduce:
      return "allreduce";
    case Collective::kAllgather:
      return "allgather";
    case Collective::kBarrier:
      return "barrier";
    case Collective::kGather:
      return "gather";
    case Collective::kScatter:
      return "scatter";
    case Collective::kAlltoall:
      return "alltoall";
  }
  return "invalid";
}

const char* algorithm_variable(Collective collective) {
  switch (collective) {
    case Collective::kBcast:
      return "HALYARD_BCAST_ALG";
    case Collective::kReduce:
      return "HALYARD_REDUCE_ALG";
    case Collective::kAllreduce:
      return "HALYARD_ALLREDUCE_ALG";
    case Collective::kAllgather:
      return "HALYARD_ALLGATHER_ALG";
    case Collective::kBarrier:
      return "HALYARD_BARRIER_ALG";
    case Collective::kGather:
      return "HALYARD_GATHER_ALG";
    case Collective::kScatter:
      return "HALYARD_SCATTER_ALG";
    case Collective::kAlltoall:
      return "HALYARD_ALLTOALL_ALG";
  }
  return "HALYARD_INVALID_ALG";
}

std::string algorithm_name(const SelectedAlgorithm& selected) {
  switch (selected.algorithm) {
    case Algorithm::kAdapt:
      return "adapt:" + std::string(tree_name(selected.tree));
    case Algorithm::kHan:
      return "han";
    default:
      return "base:" + std::string(base_name(selected.algorithm));
  }
}

std::vector<std::string> valid_algorithm_names(Collective collective) {
  std::vector<std::string> names;
  for (Algorithm algorithm : base_algorithms(collective)) {
    names.push_back(algorithm_name(SelectedAlgorithm{algorithm}));
  }
  if (has_adapt(collective)) {
    for (const auto& entry : kTreeNames) {
      names.push_back(algorithm_name(SelectedAlgorithm{Algorithm::kAdapt, entry.first}));
    }
  }
  if (has_han(collective)) names.emplace_back("han");
  return names;
}

SelectedAlgorithm parse_algorithm(Collective collective, std::string_view name,
                                  std::string_view source) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  for (Algorithm algorithm : base_algorithms(collective)) {
    if (lower == algorithm_name(SelectedAlgorithm{algorithm})) return SelectedAlgorithm{algorithm};
  }
  if (has_adapt(collective)) {
    for (const auto& entry : kTreeNames) {
      SelectedAlgorithm candidate{Algorithm::kAdapt, entry.first};
      if (lower == algorithm_name(candidate)) return candidate;
    }
  }
  if (has_han(collective) && lower == "han") return SelectedAlgorithm{Algorithm::kHan};
  std::string message = std::string(source) + "=" + std::string(name) + " is not an algorithm of " +
                        std::string(collective_name(collective)) + "; valid names:";
  for (const std::string& valid : valid_algorithm_names(collective)) message += " " + valid;
  throw Error(ErrorCode::kInvalidArgument, message);
}

}  // namespace halyard::select
