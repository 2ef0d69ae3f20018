// Point-to-point ping-pong between ranks 0 and 1: one iteration is a round trip, reported as
// one-way latency (half of it), as the OSU latency test does. Other ranks take no part.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/hbench/runner.hpp"

namespace hbench {

namespace {

constexpr int kPingTag = 1;
constexpr int kCheckTag = 2;

std::uint8_t pattern_byte(std::size_t i, std::size_t size) {
  return static_cast<std::uint8_t>((i * 7 + size) & 0xff);
}

class PingPongRunner : public Runner {
 public:
  PingPongRunner(const halyard::Communicator& world, std::size_t max_bytes)
      : world_(world), buffer_(world.rank() < 2 ? max_bytes : 0) {}
  std::size_t element_bytes() const override { return 1; }
  bool barrier_between_iterations() const override { return false; }
  double time_divisor() const override { return 2.0; }
  bool takes_part() const override { return world_.rank() < 2; }

  void verify(std::size_t bytes) override {
    if (world_.rank() == 0) {
      for (std::size_t i = 0; i < bytes; ++i) buffer_[i] = pattern_byte(i, bytes);
      world_.send(1, kCheckTag, buffer_.data(), bytes);
    } else if (world_.rank() == 1) {
      for (std::size_t i = 0; i < bytes; ++i) buffer_[i] = 0;
      world_.recv(0, kCheckTag, buffer_.data(), bytes);
      for (std::size_t i = 0; i < bytes; ++i) {
        if (buffer_[i] != pattern_byte(i, bytes)) {
          throw WrongResult("p2p message of " + std::to_string(bytes) + " B: byte " +
                            std::to_string(i) + " is " + std::to_string(buffer_[i]) +
                            ", expected " + std::to_string(pattern_byte(i, bytes)));
        }
      }
    }
  }

  void run(std::size_t bytes) override {
    if (world_.rank() == 0) {
      world_.send(1, kPingTag, buffer_.data(), bytes);
      world_.recv(1, kPingTag, buffer_.data(), bytes);
    } else if (world_.rank() == 1) {
      world_.recv(0, kPingTag, buffer_.data(), bytes);
      world_.send(0, kPingTag, buffer_.data(), bytes);
    }
  }

 private:
  halyard::Communicator world_;
  std::vector<std::uint8_t> buffer_;
};

}  // namespace

std::unique_ptr<Runner> make_pingpong_runner(const halyard::Communicator& world,
                                             std::size_t max_bytes) {
  return std::make_unique<PingPongRunner>(world, max_bytes);
}

}  // namespace hbench
