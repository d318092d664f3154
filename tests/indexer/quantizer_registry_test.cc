// QuantizerRegistry: equal quantizers share an id, ids name what was given,
// entries stay where they were put, and a full registry says kNone.
#include "indexer/quantizer_registry.h"

#include <gtest/gtest.h>

namespace gem::index {
namespace {

TEST(QuantizerRegistry, EqualQuantizersShareAnIdAndIdsNameWhatWasGiven) {
  QuantizerRegistry r;
  EXPECT_EQ(r.Get(QuantizerRegistry::kNone), nullptr);
  const FloatQuantizer a{0.0f, 1024.0f, 1.0f / 1023, 10};
  const FloatQuantizer b{-1.0f, 1.0f, 1.0f / 255, 8};
  const uint16_t ia = r.Intern(a);
  const uint16_t ib = r.Intern(b);
  EXPECT_NE(ia, QuantizerRegistry::kNone);
  EXPECT_NE(ib, QuantizerRegistry::kNone);
  EXPECT_NE(ia, ib);
  EXPECT_EQ(r.Intern(FloatQuantizer{0.0f, 1024.0f, 1.0f / 1023, 10}), ia);
  // Differing in the bit count only is another quantizer.
  EXPECT_NE(r.Intern(FloatQuantizer{0.0f, 1024.0f, 1.0f / 1023, 11}), ia);
  const FloatQuantizer* pa = r.Get(ia);
  ASSERT_NE(pa, nullptr);
  EXPECT_EQ(pa->low, a.low);
  EXPECT_EQ(pa->high, a.high);
  EXPECT_EQ(pa->mul, a.mul);
  EXPECT_EQ(pa->bits, a.bits);
  EXPECT_EQ(r.Get(ib)->low, b.low);
  EXPECT_EQ(r.size(), 3u);
}

TEST(QuantizerRegistry, EntriesStayPutAndAFullRegistrySaysNone) {
  QuantizerRegistry r;
  const uint16_t first = r.Intern(FloatQuantizer{0.0f, 1.0f, 1.0f, 1});
  const FloatQuantizer* where = r.Get(first);
  for (size_t i = 1; i < QuantizerRegistry::kCapacity; ++i) {
    ASSERT_NE(r.Intern(FloatQuantizer{static_cast<float>(i), 1e9f, 1.0f, 1}),
              QuantizerRegistry::kNone)
        << i;
  }
  EXPECT_EQ(r.size(), QuantizerRegistry::kCapacity);
  EXPECT_EQ(r.Get(first), where);  // the first entry never moved
  EXPECT_EQ(where->high, 1.0f);
  EXPECT_EQ(r.Intern(FloatQuantizer{-5.0f, 5.0f, 1.0f, 3}), QuantizerRegistry::kNone);
  // One already there still has its id.
  EXPECT_EQ(r.Intern(FloatQuantizer{0.0f, 1.0f, 1.0f, 1}), first);
}

}  // namespace
}  // namespace gem::index
