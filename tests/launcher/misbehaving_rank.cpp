// A job-test rank that fails on purpose, so the tests can watch hlaunch deal with it.
//   misbehaving_rank exit R CODE     rank R exits with CODE, the others wait forever
//   misbehaving_rank kill R          rank R kills itself with SIGKILL, the others wait forever
//   misbehaving_rank hang R          rank R exits 0, the others wait forever (--timeout test)
//   misbehaving_rank abort R CODE M  rank R calls abort(CODE, M), the others sit in a barrier
//   misbehaving_rank notice R CODE   rank R exits with CODE; the others ignore SIGTERM and
//                                    print the notice hlaunch sends them, then exit 0
//   misbehaving_rank wait            every rank prints "rank r ready" and waits forever
//   misbehaving_rank wrong-token     connects with a wrong token and a bad rank, expects both
//                                    refused, then connects properly
//   misbehaving_rank output LINES    prints LINES lines in torn writes plus an unterminated one
//   misbehaving_rank early-exit R    rank R exits 0 at once; the others enter a fence that can
//                                    never complete, print how it failed and exit 0
//   misbehaving_rank get-timeout     gets a key nobody puts; prints how the get failed
//   misbehaving_rank no-finalize R   after a barrier rank R returns 0 without finalizing; the
//                                    others wait for hlaunch's notice, print it and exit 0
//   misbehaving_rank spawn-child     every rank forks a child (its pid in HALYARD_TEST_PID_DIR as
//                                    child-R.pid), prints "rank r ready" and waits forever
//   misbehaving_rank close-no-finalize R  the same, but rank R closes its connection and
//                                    waits forever
// With HALYARD_TEST_PID_DIR set, each rank writes its pid to that folder first, so the test
// can check afterwards that no rank outlived hlaunch.
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/support/error.hpp"

namespace {

using namespace halyard;

[[noreturn]] void wait_forever() {
  while (true) ::pause();
}

void record_pid(const std::string& name) {
  const char* dir = std::getenv("HALYARD_TEST_PID_DIR");
  if (dir == nullptr) return;
  std::ofstream(std::string(dir) + "/" + name + ".pid") << ::getpid() << "\n";
}

void write_raw(const std::string& s) {
  ssize_t ignored = ::write(STDOUT_FILENO, s.data(), s.size());
  (void)ignored;
}

// Keeps the first notice hlaunch sends to `client`, for wait() to hand over.
class NoticeCatcher {
 public:
  explicit NoticeCatcher(BootstrapClient& client) {
    client.on_notice([this](const ControlNotice& n) {
      std::lock_guard lock(m_);
      notice_ = n;
      cv_.notify_all();
    });
  }
  ControlNotice wait() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return notice_.has_value(); });
    return *notice_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::optional<ControlNotice> notice_;
};

int notice_mode(const LaunchInfo& info, int failing, int code) {
  // Survive hlaunch's SIGTERM long enough to report the notice (SIGKILL still ends us).
  std::signal(SIGTERM, SIG_IGN);
  auto client = BootstrapClient::connect(info);
  NoticeCatcher catcher(*client);
  client->barrier();  // every rank ignores SIGTERM before the failure happens
  if (info.rank == failing) std::exit(code);
  try {
    client->barrier();
    std::printf("rank %d: barrier completed although rank %d failed\n", info.rank, failing);
    return 1;
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kPeerFailed) {
      std::printf("rank %d: barrier failed with %s\n", info.rank,
                  std::string(error_code_name(e.code())).c_str());
      return 1;
    }
  }
  ControlNotice notice = catcher.wait();
  std::printf("rank %d notified: %s rank %d code %d: %s\n", info.rank,
              notice.kind == ControlNotice::Kind::kPeerFailed ? "peer-failed" : "job-abort",
              notice.rank, notice.code, notice.message.c_str());
  return 0;
}

int wrong_token_mode(LaunchInfo info) {
  int failures = 0;
  auto expect_refused = [&](const LaunchInfo& bad, const std::string& what) {
    try {
      BootstrapClient::connect(bad);
      std::printf("%s: accepted\n", what.c_str());
      ++failures;
    } catch (const Error& e) {
      std::string want = "the bootstrap server at " + bad.server + " refused rank " +
                         std::to_string(bad.rank) + " (wrong job token or rank)";
      bool ok = e.code() == ErrorCode::kBootstrap && want == e.what();
      std::printf("%s: %s\n", what.c_str(), ok ? "refused" : e.what());
      if (!ok) ++failures;
    }
  };
  LaunchInfo bad_token = info;
  bad_token.token[0] = bad_token.token[0] == '0' ? '1' : '0';
  expect_refused(bad_token, "wrong token");
  LaunchInfo no_token = info;
  no_token.token.clear();
  expect_refused(no_token, "empty token");
  LaunchInfo bad_rank = info;
  bad_rank.rank = info.size;
  expect_refused(bad_rank, "rank out of range");

  auto client = BootstrapClient::connect(info);
  const std::string proof = "proof/" + std::to_string(info.rank);
  client->put(proof, "accepted");
  std::printf("right token: %s\n", client->get(proof).c_str());
  client->finalize();
  return failures == 0 ? 0 : 1;
}

// Issue 27: a rank that ends without the finalize handshake is the job's failure.
int no_finalize_mode(const LaunchInfo& info, int leaving, bool stay_alive) {
  auto client = BootstrapClient::connect(info);
  NoticeCatcher catcher(*client);
  client->barrier();
  if (info.rank == leaving) {
    if (!stay_alive) return 0;
    client.reset();
    wait_forever();
  }
  ControlNotice notice = catcher.wait();
  std::printf("rank %d notified: rank %d code %d: %s\n", info.rank, notice.rank, notice.code,
              notice.message.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto info = LaunchInfo::from_environment();
  if (!info || argc < 2) {
    std::fprintf(stderr, "misbehaving_rank: run under hlaunch with a mode\n");
    return 2;
  }
  record_pid(std::to_string(info->rank));
  std::string mode = argv[1];
  int target = argc > 2 ? std::atoi(argv[2]) : -1;
  int code = argc > 3 ? std::atoi(argv[3]) : 0;
  try {
    if (mode == "exit") {
      if (info->rank == target) return code;
      wait_forever();
    } else if (mode == "kill") {
      if (info->rank == target) ::raise(SIGKILL);
      wait_forever();
    } else if (mode == "hang") {
      if (info->rank == target) return 0;
      wait_forever();
    } else if (mode == "abort") {
      auto client = BootstrapClient::connect(*info);
      if (info->rank == target) client->abort(code, argc > 4 ? argv[4] : "");
      client->barrier();
      wait_forever();
    } else if (mode == "notice") {
      return notice_mode(*info, target, code);
    } else if (mode == "spawn-child") {
      if (::fork() == 0) {
        record_pid("child-" + std::to_string(info->rank));
        wait_forever();
      }
      std::printf("rank %d ready\n", info->rank);
      std::fflush(stdout);
      wait_forever();
    } else if (mode == "wait") {
      std::printf("rank %d ready\n", info->rank);
      std::fflush(stdout);
      wait_forever();
    } else if (mode == "no-finalize" || mode == "close-no-finalize") {
      return no_finalize_mode(*info, target, mode == "close-no-finalize");
    } else if (mode == "wrong-token") {
      return wrong_token_mode(*info);
    } else if (mode == "early-exit" || mode == "get-timeout") {
      if (mode == "early-exit" && info->rank == target) return 0;
      auto client = BootstrapClient::connect(*info);
      try {
        if (mode == "early-exit") {
          client->fence();
        } else {
          client->get("never-put");
        }
        std::printf("rank %d: %s succeeded\n", info->rank, mode.c_str());
        return 1;
      } catch (const Error& e) {
        std::printf("rank %d: %s: %s\n", info->rank, std::string(error_code_name(e.code())).c_str(),
                    e.what());
        client->finalize();
        return 0;
      }
    } else if (mode == "output") {
      // Each line leaves in two writes, cut mid-line, to tempt a launcher into mixing ranks.
      for (int i = 0; i < target; ++i) {
        std::string line = "rank " + std::to_string(info->rank) + " line " + std::to_string(i) +
                           " " + std::string(40, static_cast<char>('a' + info->rank % 26)) + "\n";
        write_raw(line.substr(0, line.size() / 2));
        write_raw(line.substr(line.size() / 2));
      }
      write_raw("rank " + std::to_string(info->rank) + " unterminated");
      return 0;
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", info->rank, e.what());
    return 1;
  }
  std::fprintf(stderr, "misbehaving_rank: unknown mode '%s'\n", mode.c_str());
  return 2;
}
