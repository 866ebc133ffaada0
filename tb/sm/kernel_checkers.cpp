// The kernel suite's property checkers (kernel_checkers.h).
#include "sm/kernel_checkers.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace simt::tb {

using model::RunConfig;
using model::RunResult;

std::vector<uint32_t> words(const assembler::Kernel& k, const RunResult& r, const std::string& label) {
  const auto& d = k.dataLabels.at(label);
  return std::vector<uint32_t>(r.global.begin() + d.byteAddr / 4,
                               r.global.begin() + d.byteAddr / 4 + d.words);
}

int launchedThreads(const assembler::Kernel& k, const RunConfig& c) {
  return (c.ctas > 0 ? c.ctas : k.ctas) * (c.threads > 0 ? c.threads : k.threads);
}

const std::map<std::string, Checker>& kernelCheckers() {
  static const std::map<std::string, Checker> m = {
      // log[0..n) holds each CTA's thread ids in ascending order, per CTA block.
      {"ordered_log", [](const auto& k, const auto& r, const auto&) {
         const auto log = words(k, r, "log");
         const auto cnt = words(k, r, "count");
         ASSERT_GT(cnt[0], 0u);
         for (uint32_t i = 1; i < cnt[0]; ++i) EXPECT_LT(log[i - 1], log[i]) << "at " << i;
       }},
      // log holds a permutation of 0..count-1 (each thread once, any order).
      {"permutation_log", [](const auto& k, const auto& r, const auto&) {
         auto log = words(k, r, "log");
         const auto cnt = words(k, r, "count");
         log.resize(cnt[0]);
         std::sort(log.begin(), log.end());
         for (uint32_t i = 0; i < cnt[0]; ++i) EXPECT_EQ(log[i], i);
       }},
      // Non-blocking bottom: thread t has seen its own and every earlier increment, and the
      // first thread left before the others had run (a blocking bottom would show the total).
      {"nonblocking_after", [](const auto& k, const auto& r, const auto&) {
         const auto after = words(k, r, "after");
         const auto cnt = words(k, r, "count");
         for (uint32_t t = 0; t < cnt[0]; ++t) EXPECT_GE(after[t], t + 1) << "thread " << t;
         EXPECT_LT(after[0], cnt[0]);
       }},
      // The hash table: every key present once in its bucket's list, counts add up.
      {"hash_table", [](const auto& k, const auto& r, const auto& c) {
         const auto heads = words(k, r, "heads");
         const auto next = words(k, r, "next");
         const auto keys = words(k, r, "keys");
         const int n = launchedThreads(k, c);
         std::vector<int> seen(static_cast<size_t>(n), 0);
         for (size_t b = 0; b < heads.size(); ++b) {
           for (uint32_t node = heads[b]; node != 0; node = next[node]) {
             ASSERT_LE(node, static_cast<uint32_t>(n));
             const uint32_t key = keys[node];
             EXPECT_EQ(key % heads.size(), b) << "key " << key << " in the wrong bucket";
             ++seen[key];
           }
         }
         for (int i = 0; i < n; ++i) EXPECT_EQ(seen[static_cast<size_t>(i)], 1) << "key " << i;
       }},
      // The sorted list: ascending, every inserted key once.
      {"sorted_list", [](const auto& k, const auto& r, const auto& c) {
         const auto next = words(k, r, "lnext");
         const auto keys = words(k, r, "lkey");
         const int n = launchedThreads(k, c);
         std::vector<uint32_t> got;
         for (uint32_t node = next[0]; node != 0; node = next[node]) {
           got.push_back(keys[node]);
           ASSERT_LE(got.size(), static_cast<size_t>(n) + 1) << "cycle in the list";
         }
         ASSERT_EQ(got.size(), static_cast<size_t>(n));
         EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
         std::vector<uint32_t> sorted(got);
         EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
       }},
  };
  return m;
}

}  // namespace simt::tb
