// The row both keyframe tests read (keyframe_codec_test row by row,
// keyframe_rows_test decoded once): at keyframe tick 1800, a state of
// 3 = -7, 9 = "radiant" and 10 = 2.0; field 4 in two runs, from 1805
// (page 7, bytes 0-11) and from 1900 (page 5, bytes 40-69); field 9 logged
// at 1801 ("dire") and 1900 (dropped), a change of another kind refused;
// field 12 logged at 3599 (2.5).
#ifndef GEM_TESTS_KEYFRAME_ROW_EXAMPLE_H_
#define GEM_TESTS_KEYFRAME_ROW_EXAMPLE_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/codec/keyframe_codec.h"

namespace gem::testing {

inline std::vector<RunRef> ExampleRuns() {
  return {RunRef{1805, 7, 0, 12}, RunRef{1900, 5, 40, 30}};
}

inline std::string ExampleRow() {
  KeyframeWriter w;
  w.Begin(1800, 0);
  w.AddState(3, Value::Int(-7));
  w.AddState(9, Value::String("radiant"));
  w.AddState(10, Value::Float(2.0f));
  w.AddRuns(4, ExampleRuns());
  EXPECT_TRUE(w.AddLogged(9, 1801, Value::String("dire")));
  EXPECT_TRUE(w.AddLogged(9, 1900, Value::None()));
  EXPECT_FALSE(w.AddLogged(9, 1950, Value::Int(3)));  // another kind: refused
  EXPECT_TRUE(w.AddLogged(12, 3599, Value::Float(2.5f)));
  std::string row;
  w.Finish(&row);
  return row;
}

}  // namespace gem::testing

#endif  // GEM_TESTS_KEYFRAME_ROW_EXAMPLE_H_
