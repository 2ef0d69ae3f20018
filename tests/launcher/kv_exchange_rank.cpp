// A job-test rank: exchanges keys with every other rank through hlaunch's bootstrap server and
// checks every value it reads. Exits 0 only when all checks pass.
#include <cstdio>
#include <string>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/support/error.hpp"

namespace {

constexpr int kKeysPerRank = 4;

std::string value_of(int rank, int i, int size) {
  return "value-" + std::to_string(rank) + "-" + std::to_string(i) + "-of-" + std::to_string(size);
}

}  // namespace

int main() {
  using namespace halyard;
  auto info = LaunchInfo::from_environment();
  if (!info) {
    std::fprintf(stderr, "kv_exchange_rank: not started by hlaunch\n");
    return 2;
  }
  const int rank = info->rank;
  const int size = info->size;
  int failures = 0;
  auto check = [&](const std::string& what, const std::string& got, const std::string& want) {
    if (got != want) {
      std::fprintf(stderr, "rank %d: %s is '%s', expected '%s'\n", rank, what.c_str(), got.c_str(),
                   want.c_str());
      ++failures;
    }
  };
  try {
    auto client = BootstrapClient::connect(*info);

    // A chain of gets that must wait: rank r reads rank r-1's key before putting its own, so
    // every get but rank 0's is parked on the server until the put arrives.
    if (rank > 0) {
      check("chain/" + std::to_string(rank - 1), client->get("chain/" + std::to_string(rank - 1)),
            "link-" + std::to_string(rank - 1));
    }
    client->put("chain/" + std::to_string(rank), "link-" + std::to_string(rank));

    for (int i = 0; i < kKeysPerRank; ++i) {
      client->put("key/" + std::to_string(rank) + "/" + std::to_string(i), value_of(rank, i, size));
    }
    client->fence();
    int checked = 0;
    for (int r = 0; r < size; ++r) {
      for (int i = 0; i < kKeysPerRank; ++i) {
        std::string key = "key/" + std::to_string(r) + "/" + std::to_string(i);
        check(key, client->get(key), value_of(r, i, size));
        ++checked;
      }
    }

    // Keys are written once: a second put is refused with a message naming the key.
    std::string again = "key/" + std::to_string(rank) + "/0";
    try {
      client->put(again, "other");
      check("second put of " + again, "accepted", "refused");
    } catch (const Error& e) {
      check("second put error code", std::string(error_code_name(e.code())), "invalid argument");
      check("second put message", e.what(),
            "bootstrap key '" + again + "' was put twice (second put by rank " +
                std::to_string(rank) + ")");
    }
    client->barrier();
    client->barrier();
    std::printf("rank %d of %d: checked %d values\n", rank, size, checked);
    client->finalize();
  } catch (const Error& e) {
    std::fprintf(stderr, "rank %d: %s: %s\n", rank, std::string(error_code_name(e.code())).c_str(),
                 e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
