// The shm transport between real processes (fork): the segment is opened through /proc by a
// process that did not create it, CMA reads another address space, and nothing of the job is
// left in /dev/shm, also when a rank is killed.
#include <gtest/gtest.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "runtime/support/cma_copy.hpp"
#include "tests/shm/file_bootstrap.hpp"
#include "tests/shm/shm_test_support.hpp"

namespace halyard::testing {
namespace {

// One rank of a two-process job, with its transport wired through the file bootstrap.
class ProcessRank {
 public:
  ProcessRank(const std::filesystem::path& dir, const std::string& job, int rank, int size)
      : bootstrap_(dir, launch_info(job, rank, size)) {
    transport_ = make_shm_transport(bootstrap_.info());
    transport_->set_incoming_handler(
        [this](std::unique_ptr<IncomingMessage> m) { arrivals_.push_back(std::move(m)); });
    TopologyTable table(std::vector<TopologyRow>(static_cast<std::size_t>(size)));
    transport_->publish(bootstrap_);
    bootstrap_.fence();
    transport_->connect(bootstrap_, table);
  }

  Transport& transport() { return *transport_; }
  shm::ShmTransport& shm() { return dynamic_cast<shm::ShmTransport&>(*transport_); }
  std::deque<std::unique_ptr<IncomingMessage>>& arrivals() { return arrivals_; }
  void destroy() { transport_.reset(); }

  bool run_until(const std::function<bool()>& done) {
    return progress_until([this] { transport_->progress(); }, done, 20'000'000);
  }

 private:
  static LaunchInfo launch_info(const std::string& job, int rank, int size) {
    LaunchInfo info;
    info.rank = info.local_rank = rank;
    info.size = info.local_size = size;
    info.job_id = job;
    return info;
  }

  FileBootstrap bootstrap_;
  std::unique_ptr<Transport> transport_;
  std::deque<std::unique_ptr<IncomingMessage>> arrivals_;
};

// Both ranks send `sizes` to each other and check what they get. Returns 0, or which step failed
// (a child process reports through its exit status).
int exchange(ProcessRank& me, int self, int peer, const std::vector<std::size_t>& sizes) {
  std::vector<std::unique_ptr<std::byte[]>> sources;
  int sent = 0, failures = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    sources.push_back(patterned_buffer(sizes[i], static_cast<std::uint64_t>(self * 100) + i));
    me.transport().send(peer, Envelope{0, self, static_cast<int>(i), 0, sizes[i]},
                        sources.back().get(), [&](const Status& s) {
                          sent++;
                          if (!s.ok()) failures++;
                        });
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (!me.run_until([&] { return !me.arrivals().empty(); })) return 10;
    auto m = std::move(me.arrivals().front());
    me.arrivals().pop_front();
    if (m->envelope().tag != static_cast<int>(i) || m->envelope().size != sizes[i]) return 11;
    auto dst = std::make_unique<std::byte[]>(sizes[i] + 1);
    Status got;
    bool done = false;
    m->deliver(dst.get(), sizes[i], [&](const Status& s) {
      got = s;
      done = true;
    });
    if (!me.run_until([&] { return done; })) return 12;
    if (!got.ok() || got.bytes != sizes[i]) return 13;
    std::uint64_t seed = static_cast<std::uint64_t>(peer * 100) + i;
    if (first_mismatch(dst.get(), sizes[i], seed) != sizes[i]) return 14;
  }
  if (!me.run_until([&] { return sent == static_cast<int>(sizes.size()); })) return 15;
  return failures == 0 ? 0 : 16;
}

// Entries of /dev/shm whose name mentions the job.
int dev_shm_entries_of(const std::string& job) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/dev/shm")) {
    if (entry.path().filename().string().find(job) != std::string::npos) ++n;
  }
  return n;
}

// Lines of /proc/self/maps that map the job's segment.
int mappings_of(const std::string& job) {
  std::ifstream maps("/proc/self/maps");
  int n = 0;
  for (std::string line; std::getline(maps, line);) {
    if (line.find("halyard-" + job) != std::string::npos) ++n;
  }
  return n;
}

// Waits for `pid` without hanging forever on a stuck child: kills it after the guard.
int wait_child(pid_t pid) {
  int status = 0;
  for (int i = 0; i < 60'000; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    ::usleep(1000);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return status;
}

std::filesystem::path fresh_directory() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "halyard-shm-test-XXXXXX").string();
  EXPECT_NE(::mkdtemp(tmpl.data()), nullptr);
  return tmpl;
}

// Makes process_vm_readv fail with EPERM in this process, as a locked-down container would.
bool refuse_cma_in_this_process() {
  sock_filter filter[] = {
      {BPF_LD | BPF_W | BPF_ABS, 0, 0, static_cast<std::uint32_t>(offsetof(seccomp_data, nr))},
      {BPF_JMP | BPF_JEQ | BPF_K, 0, 1, static_cast<std::uint32_t>(SYS_process_vm_readv)},
      {BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)},
      {BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ALLOW},
  };
  sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0;
}

class ShmAcrossProcesses : public ::testing::TestWithParam<const char*> {};

TEST_P(ShmAcrossProcesses, ExchangeEveryPathByteExact) {
  ScopedEnv mode("HALYARD_SHM_SINGLE_COPY", GetParam());
  auto dir = fresh_directory();
  std::string job = unique_job_id("shmproc");
  // Both sides of the eager limit (64 KiB) and of the CMA chunk (4 MiB).
  const std::vector<std::size_t> sizes = {0, 8, 5000, 16384, 65536, 65537, 1u << 20, 24u << 20};
  bool staged = std::string(GetParam()) == "none";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int rc = 100;
    try {
      ProcessRank me(dir, job, 1, 2);
      rc = exchange(me, 1, 0, sizes);
      if (rc == 0 && (me.shm().stats().staged_pulls > 0) != staged) rc = 20;
    } catch (...) {
      rc = 101;
    }
    ::_exit(rc);
  }
  {
    ProcessRank me(dir, job, 0, 2);
    EXPECT_EQ(dev_shm_entries_of(job), 0);
    EXPECT_EQ(mappings_of(job), 1);
    EXPECT_EQ(exchange(me, 0, 1, sizes), 0);
    EXPECT_EQ(me.shm().stats().cma_pulls > 0, !staged);
    int status = wait_child(child);
    ASSERT_TRUE(WIFEXITED(status)) << "child status " << status;
    EXPECT_EQ(WEXITSTATUS(status), 0) << "child failed at step " << WEXITSTATUS(status);
  }
  EXPECT_EQ(mappings_of(job), 0);
  EXPECT_EQ(dev_shm_entries_of(job), 0);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Modes, ShmAcrossProcesses, ::testing::Values("auto", "none"),
                         [](const auto& param_info) { return std::string(param_info.param); });

TEST(ShmAcrossProcesses, RefusedCmaFallsBackToTheStagedCopy) {
  auto dir = fresh_directory();
  std::string job = unique_job_id("shmseccomp");
  const std::vector<std::size_t> sizes = {100, 100000, 3u << 20, 9u << 20};  // 3 rendezvous
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int rc = 100;
    try {
      if (!refuse_cma_in_this_process()) ::_exit(30);
      std::byte probe[8];
      if (cma_read(::getppid(), reinterpret_cast<std::uintptr_t>(&probe), probe, 8) != EPERM) {
        ::_exit(31);
      }
      ProcessRank me(dir, job, 1, 2);
      rc = exchange(me, 1, 0, sizes);
      const auto& stats = me.shm().stats();
      if (rc == 0 && (stats.cma_pulls != 0 || stats.staged_pulls != 3)) rc = 21;
    } catch (...) {
      rc = 101;
    }
    ::_exit(rc);
  }
  ProcessRank me(dir, job, 0, 2);
  EXPECT_EQ(exchange(me, 0, 1, sizes), 0);
  EXPECT_EQ(me.shm().stats().cma_pulls, 3u);  // the parent may still read the child
  int status = wait_child(child);
  ASSERT_TRUE(WIFEXITED(status)) << "child status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child failed at step " << WEXITSTATUS(status);
  std::filesystem::remove_all(dir);
}

TEST(ShmAcrossProcesses, ForcedCmaThatIsRefusedFailsBothSides) {
  ScopedEnv mode("HALYARD_SHM_SINGLE_COPY", "cma");
  auto dir = fresh_directory();
  std::string job = unique_job_id("shmforced");
  const std::size_t size = 1u << 20;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int rc = 100;
    try {
      if (!refuse_cma_in_this_process()) ::_exit(30);
      ProcessRank me(dir, job, 1, 2);
      if (!me.run_until([&] { return !me.arrivals().empty(); })) ::_exit(40);
      auto dst = std::make_unique<std::byte[]>(size);
      Status got;
      bool done = false;
      me.arrivals().front()->deliver(dst.get(), size, [&](const Status& s) {
        got = s;
        done = true;
      });
      if (!me.run_until([&] { return done; })) ::_exit(41);
      std::string expected = "shm: process_vm_readv from rank 0 (pid " +
                             std::to_string(::getppid()) + ") failed: Operation not permitted";
      rc = got.code == ErrorCode::kTransport && got.message == expected ? 0 : 42;
      // The failure notice is already in the ring (and the ring outlives this process).
    } catch (...) {
      rc = 101;
    }
    ::_exit(rc);
  }
  ProcessRank me(dir, job, 0, 2);
  auto src = patterned_buffer(size, 3);
  CompletionRecord sent;
  me.transport().send(1, Envelope{0, 0, 0, 0, size}, src.get(), sent.callback());
  ASSERT_TRUE(me.run_until([&] { return sent.done; }));
  EXPECT_EQ(sent.status.code, ErrorCode::kTransport);
  EXPECT_EQ(
      sent.status.message,
      "shm: rank 1 could not read the message with process_vm_readv: Operation not permitted");
  int status = wait_child(child);
  ASSERT_TRUE(WIFEXITED(status)) << "child status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child failed at step " << WEXITSTATUS(status);
  std::filesystem::remove_all(dir);
}

TEST(ShmAcrossProcesses, KillingTheCreatorLeavesNothingBehind) {
  auto dir = fresh_directory();
  std::string job = unique_job_id("shmkill");
  const std::size_t size = 4u << 20;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // rank 0 creates the segment, sends one message, then runs until killed
    try {
      ProcessRank me(dir, job, 0, 2);
      auto src = patterned_buffer(size, 77);
      me.transport().send(1, Envelope{0, 0, 5, 0, size}, src.get(), nullptr);
      for (;;) {
        if (me.transport().progress() == 0) ::usleep(100);
      }
    } catch (...) {
    }
    ::_exit(101);
  }
  ProcessRank me(dir, job, 1, 2);
  ASSERT_TRUE(me.run_until([&] { return !me.arrivals().empty(); }));
  auto dst = std::make_unique<std::byte[]>(size);
  bool done = false;
  me.arrivals().front()->deliver(dst.get(), size, [&](const Status& s) {
    EXPECT_TRUE(s.ok()) << s.message;
    done = true;
  });
  ASSERT_TRUE(me.run_until([&] { return done; }));
  EXPECT_EQ(first_mismatch(dst.get(), size, 77), size);

  ASSERT_EQ(::kill(child, SIGKILL), 0);
  int status = wait_child(child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;
  EXPECT_EQ(dev_shm_entries_of(job), 0);

  // The survivor's mapping outlives its creator: it can still talk to itself through it.
  std::uint64_t value = 0x1234, got = 0;
  bool received = false;
  me.transport().send(1, Envelope{0, 1, 6, 0, sizeof value}, &value, nullptr);
  ASSERT_TRUE(me.run_until([&] { return me.arrivals().size() == 2; }));
  me.arrivals().back()->deliver(&got, sizeof got, [&](const Status&) { received = true; });
  ASSERT_TRUE(me.run_until([&] { return received; }));
  EXPECT_EQ(got, value);

  me.destroy();
  EXPECT_EQ(mappings_of(job), 0);
  EXPECT_EQ(dev_shm_entries_of(job), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace halyard::testing

// A read of a range that is really unmapped still fails with EFAULT after its retries (they are
// for a transient fault, cma_copy.cpp), and a readable range next to it still reads.
TEST(ShmAcrossProcesses, UnmappedRangeStillFailsWithEfault) {
  const long page = ::sysconf(_SC_PAGESIZE);
  void* pages = ::mmap(nullptr, std::size_t(2 * page), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  std::memset(pages, 0x5a, std::size_t(page));
  auto address = reinterpret_cast<std::uintptr_t>(pages);
  ASSERT_EQ(::munmap(static_cast<char*>(pages) + page, std::size_t(page)), 0);
  std::vector<unsigned char> local(std::size_t(page), 0);
  EXPECT_EQ(halyard::cma_read(::getpid(), address + std::size_t(page), local.data(), local.size()),
            EFAULT);
  ASSERT_EQ(halyard::cma_read(::getpid(), address, local.data(), local.size()), 0);
  for (std::size_t i = 0; i < local.size(); ++i) ASSERT_EQ(local[i], 0x5a) << "byte " << i;
  ::munmap(pages, std::size_t(page));
}

// Reads and writes whose two sides lie at different offsets modulo 32 bytes go through a bounce
// buffer in 256 KiB pieces (cma_copy.cpp): every byte arrives, in several pieces too, and nothing
// next to the destination is written. A misplaced read of an unmapped range still fails.
TEST(ShmAcrossProcesses, CopiesAtEveryOffsetArriveByteExact) {
  constexpr std::size_t kBytes = 600 * 1024 + 7;  // three bounce pieces, the last a short one
  constexpr std::size_t kPad = 64;
  std::vector<unsigned char> source(kBytes + kPad);
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 7 + 3);
  std::vector<unsigned char> target(kBytes + 2 * kPad);
  for (std::size_t from : {0, 8, 16, 24, 48}) {
    for (std::size_t to : {0, 1, 8, 16, 33}) {
      for (bool read : {true, false}) {
        std::fill(target.begin(), target.end(), 0xee);
        unsigned char* dst = target.data() + kPad + to;
        const unsigned char* src = source.data() + from;
        const int error =
            read ? halyard::cma_read(::getpid(), reinterpret_cast<std::uintptr_t>(src), dst, kBytes)
                 : halyard::cma_write(::getpid(), reinterpret_cast<std::uintptr_t>(dst), src,
                                      kBytes);
        ASSERT_EQ(error, 0) << (read ? "read" : "write") << " from +" << from << " to +" << to;
        ASSERT_EQ(std::memcmp(dst, src, kBytes), 0)
            << (read ? "read" : "write") << " from +" << from << " to +" << to;
        for (std::size_t i = 0; i < kPad + to; ++i) ASSERT_EQ(target[i], 0xee) << "before, " << i;
        for (std::size_t i = kPad + to + kBytes; i < target.size(); ++i) {
          ASSERT_EQ(target[i], 0xee) << "after, " << i;
        }
      }
    }
  }
  const long page = ::sysconf(_SC_PAGESIZE);
  void* pages = ::mmap(nullptr, std::size_t(page), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  ASSERT_EQ(::munmap(pages, std::size_t(page)), 0);
  EXPECT_EQ(halyard::cma_read(::getpid(), reinterpret_cast<std::uintptr_t>(pages),
                              target.data() + 1, std::size_t(page)),
            EFAULT);
}
