#include "random/mps_generator.h"

namespace engine::detail {
namespace {

constexpr std::uint32_t kPhilox10A = 0x9E3779B9, kPhilox10B = 0xBB67AE85;
constexpr std::uint32_t kPhiloxSA = 0xD2511F53, kPhiloxSB = 0xCD9E8D57;

std::array<std::uint32_t, 4> single_round(const std::array<std::uint32_t, 4>& ctr,
                                          const std::array<std::uint32_t, 2>& key) {
  const std::uint64_t product0 = static_cast<std::uint64_t>(kPhiloxSA) * ctr[0];
  const std::uint64_t product1 = static_cast<std::uint64_t>(kPhiloxSB) * ctr[2];
  const auto hi0 = static_cast<std::uint32_t>(product0 >> 32),
             lo0 = static_cast<std::uint32_t>(product0);
  const auto hi1 = static_cast<std::uint32_t>(product1 >> 32),
             lo1 = static_cast<std::uint32_t>(product1);
  return {hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0};
}

// splitmix64's finaliser: neighbouring operations' seeds share no bits.
std::uint64_t mixed(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Little-endian, as memcpy lays these out on Apple silicon, on every host.
void put(std::uint64_t value, std::size_t bytes, std::uint8_t* at) {
  for (std::size_t i = 0; i < bytes; ++i) at[i] = static_cast<std::uint8_t>(value >> (8 * i));
}
std::uint64_t get(std::size_t bytes, const std::uint8_t* at) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) value |= static_cast<std::uint64_t>(at[i]) << (8 * i);
  return value;
}

}  // namespace

void Philox4x32::reset_state(std::uint64_t seed) {
  key_ = {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  counter_ = {};
  output_ = {};
  state_ = 0;
}

std::uint64_t Philox4x32::offset() const {
  return (static_cast<std::uint64_t>(counter_[1]) << 32) | counter_[0];
}

void Philox4x32::set_offset(std::uint64_t blocks) {
  counter_[0] = static_cast<std::uint32_t>(blocks);
  counter_[1] = static_cast<std::uint32_t>(blocks >> 32);
}

std::uint32_t Philox4x32::operator()() {
  if (state_ == 0) {
    std::array<std::uint32_t, 4> counter = counter_;
    std::array<std::uint32_t, 2> key = key_;
    for (int i = 0; i < 9; ++i) {
      counter = single_round(counter, key);
      key[0] += kPhilox10A;
      key[1] += kPhilox10B;
    }
    output_ = single_round(counter, key);
    for (std::uint32_t& word : counter_) {  // incr(): the 128-bit counter, plus one
      if (++word != 0) break;
    }
  }
  const std::uint32_t value = output_[state_];
  state_ = (state_ + 1) % 4;
  return value;
}

MpsGenerator::MpsGenerator() { set_current_seed(CpuGenerator::nondeterministic_seed()); }

// MPSGeneratorImpl::set_current_seed: the words back to 1 but for the key.
void MpsGenerator::set_current_seed(std::uint64_t seed) {
  seed_ = seed;
  words_.fill(1);
  words_[5] = static_cast<std::uint32_t>(seed);
  words_[6] = static_cast<std::uint32_t>(seed >> 32);
  philox_.reset_state(seed);
}

// update_philox_counters: words 1 to 4 from the engine, before each random operation; then the
// operation's own stream.
CpuGenerator& MpsGenerator::for_next_operation() {
  const std::uint64_t operation = philox_.offset();
  for (int i = 1; i <= 4; ++i) words_[static_cast<std::size_t>(i)] = philox_();
  stream_.set_current_seed(mixed(seed_ + 0x9E3779B97F4A7C15ULL * operation));
  return stream_;
}

std::array<std::uint8_t, MpsGenerator::kStateBytes> MpsGenerator::state() const {
  std::array<std::uint8_t, kStateBytes> bytes{};
  for (std::size_t i = 0; i < words_.size(); ++i) put(words_[i], 4, bytes.data() + 4 * i);
  put(seed_, 8, bytes.data() + 28);
  put(philox_.offset(), 8, bytes.data() + 36);
  return bytes;
}

// set_state: the seed first (which resets the words), then the offset, then the words.
void MpsGenerator::set_state(const std::array<std::uint8_t, kStateBytes>& bytes) {
  set_current_seed(get(8, bytes.data() + 28));
  philox_.set_offset(get(8, bytes.data() + 36));
  for (std::size_t i = 0; i < words_.size(); ++i)
    words_[i] = static_cast<std::uint32_t>(get(4, bytes.data() + 4 * i));
}

}  // namespace engine::detail
