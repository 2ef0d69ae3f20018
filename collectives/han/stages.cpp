#include "collectives/han/stages.hpp"

namespace halyard::han {

namespace {

constexpr Stage kBcast[] = {Stage::kIb, Stage::kSb};
constexpr Stage kReduce[] = {Stage::kSr, Stage::kIr};
constexpr Stage kAllreduceOneStep[] = {Stage::kSr, Stage::kIrAllreduce, Stage::kSb};
constexpr Stage kAllreduceTwoSteps[] = {Stage::kSr, Stage::kIr, Stage::kIb, Stage::kSb};

}  // namespace

std::string_view stage_name(Stage stage) {
  switch (stage) {
    case Stage::kSr:
      return "sr";
    case Stage::kIr:
      return "ir";
    case Stage::kIrAllreduce:
      return "ira";
    case Stage::kIb:
      return "ib";
    case Stage::kSb:
      return "sb";
  }
  return "invalid";
}

bool leaders_allreduce_in_one_step(const Config& config) {
  return config.inter == InterModule::kBase || !config.inter_chosen;
}

std::span<const Stage> stages_of(core::Collective collective, const Config& config) {
  switch (collective) {
    case core::Collective::kBcast:
      return kBcast;
    case core::Collective::kReduce:
      return kReduce;
    case core::Collective::kAllreduce:
      if (leaders_allreduce_in_one_step(config)) return kAllreduceOneStep;
      return kAllreduceTwoSteps;
    default:
      return {};
  }
}

}  // namespace halyard::han
