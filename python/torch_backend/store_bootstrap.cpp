#include "store_bootstrap.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "runtime/support/error.hpp"

namespace halyard::torch_backend {

namespace {

const std::string kPrefix = "halyard/";

std::vector<std::uint8_t> bytes_of(std::string_view text) {
  return {text.begin(), text.end()};
}

std::string host_name() {
  char name[256] = {};
  ::gethostname(name, sizeof(name) - 1);
  return name;
}

}  // namespace

StoreBootstrap::StoreBootstrap(c10::intrusive_ptr<c10d::Store> store, int rank, int size)
    : store_(std::move(store)) {
  info_.rank = rank;
  info_.size = size;
  info_.local_size = 0;  // counted below
  if (rank == 0) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    put("job",
        "torch-" + host_name() + "-" + std::to_string(::getpid()) + "-" + std::to_string(now));
  }
  info_.job_id = get("job");
  const std::string my_host = host_name();
  put("host/" + std::to_string(rank), my_host);
  std::map<std::string, int> node_of_host;  // in order of first appearance by rank
  for (int r = 0; r < size; ++r) {
    const std::string host = get("host/" + std::to_string(r));
    const auto [it, added] = node_of_host.emplace(host, static_cast<int>(node_of_host.size()));
    if (host == my_host) {
      info_.local_rank += r < rank ? 1 : 0;
      ++info_.local_size;
    }
    if (r == rank) info_.node_id = it->second;
  }
  info_.num_nodes = static_cast<int>(node_of_host.size());
}

void StoreBootstrap::put(std::string_view key, std::string_view value) {
  store_->set(kPrefix + std::string(key), bytes_of(value));
}

std::string StoreBootstrap::get(std::string_view key) {
  try {
    const std::vector<std::uint8_t> value = store_->get(kPrefix + std::string(key));
    return {value.begin(), value.end()};
  } catch (const std::exception& e) {
    throw Error(ErrorCode::kTimeout,
                "torch store: no value for " + std::string(key) + ": " + e.what());
  }
}

void StoreBootstrap::barrier() {
  const std::string key = kPrefix + "barrier/" + std::to_string(barriers_++);
  if (store_->add(key, 1) == info_.size) store_->set(key + "/done", bytes_of("1"));
  try {
    store_->wait({key + "/done"});
  } catch (const std::exception& e) {
    throw Error(ErrorCode::kTimeout, std::string("torch store: barrier: ") + e.what());
  }
}

void StoreBootstrap::abort(int code, std::string_view message) {
  std::fprintf(stderr, "halyard (torch backend) rank %d: aborting: %.*s\n", info_.rank,
               static_cast<int>(message.size()), message.data());
  std::_Exit(code == 0 ? 1 : code);
}

}  // namespace halyard::torch_backend
