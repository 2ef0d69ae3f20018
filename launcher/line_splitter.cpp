#include "launcher/line_splitter.hpp"

namespace halyard::launcher {

std::vector<std::string> LineSplitter::feed(std::string_view data) {
  std::vector<std::string> lines;
  while (!data.empty()) {
    std::size_t newline = data.find('\n');
    std::size_t take = newline == std::string_view::npos ? data.size() : newline + 1;
    partial_.append(data.substr(0, take));
    data.remove_prefix(take);
    if (newline != std::string_view::npos) {
      lines.push_back(std::move(partial_));
      partial_.clear();
    }
    while (partial_.size() >= max_line_) {
      lines.push_back(partial_.substr(0, max_line_) + '\n');
      partial_.erase(0, max_line_);
    }
  }
  return lines;
}

std::optional<std::string> LineSplitter::finish() {
  if (partial_.empty()) return std::nullopt;
  std::string last = std::move(partial_) + '\n';
  partial_.clear();
  return last;
}

}  // namespace halyard::launcher
