#include <gtest/gtest.h>

#include "pivot/lcp.hpp"

namespace pivot {

TEST(LcpNames, MethodNamesRoundTrip) {
  for (LcpMethod m : {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
    LcpMethod parsed = LcpMethod::Standard;
    ASSERT_TRUE(parse_lcp_method(to_string(m), &parsed));
    EXPECT_EQ(parsed, m);
  }
}

TEST(LcpNames, RejectsUnknownMethodAndWrongCase) {
  LcpMethod parsed = LcpMethod::Reduced;
  EXPECT_FALSE(parse_lcp_method("Standard", &parsed));
  EXPECT_FALSE(parse_lcp_method("lemke", &parsed));
  EXPECT_FALSE(parse_lcp_method("", &parsed));
  EXPECT_EQ(parsed, LcpMethod::Reduced);  // untouched on failure
}

TEST(LcpNames, StatusNamesAreTheJsonVocabulary) {
  EXPECT_STREQ(to_string(LcpStatus::Solved), "solved");
  EXPECT_STREQ(to_string(LcpStatus::SecondaryRay), "secondary_ray");
  EXPECT_STREQ(to_string(LcpStatus::PivotLimit), "pivot_limit");
  EXPECT_STREQ(to_string(LcpStatus::NumericalFailure), "numerical_failure");
}

}  // namespace pivot
