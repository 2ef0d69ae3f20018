// Lets a rank sleep in poll() while its peers can still wake it when they write to it.
//
// Each rank binds a non-blocking datagram socket in the abstract Unix namespace (named after
// the job and the rank, so nothing appears on any file system and the name goes when the
// process does); a peer that changes shared state while the rank says it is sleeping sends it
// one empty datagram. The receiving socket is the transport's wait_fd().
#pragma once

#include <cstdint>
#include <string>

namespace halyard::shm {

class WakeChannel {
 public:
  // Binds the rank's socket; when that fails (e.g. a leftover of a job with the same id), fd()
  // is -1 and the rank simply never sleeps on it.
  WakeChannel(std::string job_id, int world_rank);
  WakeChannel(const WakeChannel&) = delete;
  WakeChannel& operator=(const WakeChannel&) = delete;
  ~WakeChannel();

  int fd() const { return receive_fd_; }
  // Reads every pending wake-up, so that the fd is quiet again.
  void drain();
  // Wakes rank `world_rank` of the same job; best effort (a full socket already means "awake").
  void poke(int world_rank);
  // Pokes `world_rank` if its `sleeping` flag (in the shared segment) is up. Only the poker that
  // clears the flag sends, so a sleeper gets one wake-up however many peers changed its memory.
  void poke_if_sleeping(std::uint32_t& sleeping, int world_rank);

 private:
  std::string job_id_;
  int receive_fd_ = -1;
  int send_fd_ = -1;
};

}  // namespace halyard::shm
