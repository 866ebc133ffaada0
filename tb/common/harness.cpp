#include "common/harness.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace simt::tb {

std::string currentTestName() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return "no_test";
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return name;
}

static uint64_t envU64(const char* name, uint64_t dflt) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return dflt;
  char* end = nullptr;
  const uint64_t x = std::strtoull(v, &end, 0);
  if (end == v || *end != '\0') {
    ADD_FAILURE() << name << "='" << v << "' is not a number";
    return dflt;
  }
  return x;
}

uint64_t baseSeed() { return envU64("SIMT_SEED", kDefaultSeed); }
int repeatCount() { return static_cast<int>(envU64("SIMT_REPEAT", 1)); }
int lengthScale() { return static_cast<int>(envU64("SIMT_SCALE", 1)); }

std::vector<uint64_t> testSeeds() {
  std::vector<uint64_t> seeds;
  const uint64_t base = baseSeed();
  const int n = repeatCount();
  for (int i = 0; i < n; ++i) seeds.push_back(base + static_cast<uint64_t>(i));
  return seeds;
}

bool Scoreboard::check(const std::string& context, const Fields& model, const Fields& dut) {
  ++checks_;
  bool ok = model.size() == dut.size();
  std::ostringstream diff;
  for (size_t i = 0; i < model.size() && i < dut.size(); ++i) {
    if (model[i].first != dut[i].first) {
      ok = false;
      diff << "\n  field order differs: " << model[i].first << " vs " << dut[i].first;
      continue;
    }
    if (model[i].second != dut[i].second) {
      ok = false;
      diff << "\n  " << model[i].first << ": model=0x" << std::hex << model[i].second
           << " rtl=0x" << dut[i].second << std::dec;
    }
  }
  if (!ok) {
    ++mismatches_;
    if (mismatches_ <= static_cast<uint64_t>(maxReports_)) {
      ADD_FAILURE() << block_ << " mismatch at " << context << diff.str();
    }
  }
  return ok;
}

void Coverage::hit(const std::string& bin) {
  auto it = bins_.find(bin);
  if (it == bins_.end()) {
    ADD_FAILURE() << "coverage " << name_ << ": undefined bin '" << bin << "'";
    return;
  }
  ++it->second;
}

uint64_t Coverage::hits(const std::string& bin) const {
  auto it = bins_.find(bin);
  return it == bins_.end() ? 0 : it->second;
}

std::string Coverage::report() const {
  std::ostringstream os;
  size_t covered = 0;
  for (const auto& [bin, n] : bins_) covered += n > 0 ? 1 : 0;
  os << "coverage " << name_ << ": " << covered << "/" << bins_.size() << " bins\n";
  for (const auto& [bin, n] : bins_) os << "  " << (n ? "  " : "! ") << bin << " " << n << "\n";
  return os.str();
}

void Coverage::requireAllHit() const {
  for (const auto& [bin, n] : bins_) {
    EXPECT_GT(n, 0u) << "coverage " << name_ << ": bin '" << bin << "' never hit";
  }
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::path(SIMT_WAVE_DIR).parent_path() / "coverage";
  std::filesystem::create_directories(dir, ec);
  if (!ec) std::ofstream(dir / (currentTestName() + ".txt")) << report();
}

}  // namespace simt::tb
