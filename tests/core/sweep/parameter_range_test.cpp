// SPDX-License-Identifier: Apache-2.0
#include "sweep/parameter_range.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wb {
namespace {

std::vector<std::string> texts(const RangeValues& r)
{
    std::vector<std::string> out;
    for (double v : r.values)
        out.push_back(spec_number_text(v));
    return out;
}

TEST(ArithmeticRange, IncludesItsEndDespiteBinaryFractions)
{
    // 0.1 + 2 * 0.1 is 0.30000000000000004 in binary: still the end.
    const RangeValues r = arithmetic_range(0.1, 0.3, 0.1);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(texts(r), (std::vector<std::string>{"0.1", "0.2", "0.3"}));
    EXPECT_EQ(texts(arithmetic_range(25, 100, 25)), (std::vector<std::string>{"25", "50", "75", "100"}));
    EXPECT_EQ(texts(arithmetic_range(1, 10, 4)), (std::vector<std::string>{"1", "5", "9"}));
    EXPECT_EQ(texts(arithmetic_range(7, 7, 1)), (std::vector<std::string>{"7"}));
}

TEST(ArithmeticRange, RefusesWhatCannotEnd)
{
    EXPECT_EQ(arithmetic_range(1, 10, 0).error, "expected \"step\" above 0");
    EXPECT_EQ(arithmetic_range(1, 10, -1).error, "expected \"step\" above 0");
    EXPECT_EQ(arithmetic_range(10, 1, 1).error, "expected \"to\" at or above \"from\"");
    EXPECT_EQ(arithmetic_range(0, 1, 1e-6).error, "expands to more than 10000 values between 0 and 1");
}

TEST(GeometricRange, MultipliesUpToItsEnd)
{
    EXPECT_EQ(texts(geometric_range(1, 32, 2)), (std::vector<std::string>{"1", "2", "4", "8", "16", "32"}));
    EXPECT_EQ(texts(geometric_range(1, 50, 2)), (std::vector<std::string>{"1", "2", "4", "8", "16", "32"}));
    EXPECT_EQ(texts(geometric_range(10, 1000, 10)), (std::vector<std::string>{"10", "100", "1000"}));
    EXPECT_EQ(geometric_range(0, 8, 2).error, "expected \"from\" above 0 for a geometric range");
    EXPECT_EQ(geometric_range(1, 8, 1).error, "expected \"factor\" above 1");
    EXPECT_EQ(geometric_range(8, 1, 2).error, "expected \"to\" at or above \"from\"");
}

TEST(ParameterValue, IsANumberWithOrWithoutAUnitOnly)
{
    EXPECT_EQ(parameter_value("4").number, 4.0);
    EXPECT_EQ(parameter_value("0.25").number, 0.25);
    EXPECT_EQ(parameter_value("500us").number, 500.0);
    EXPECT_EQ(parameter_value("socket").number, std::nullopt);
    EXPECT_EQ(parameter_value("0-3").number, std::nullopt);  // a cpulist
    EXPECT_EQ(parameter_value("0,2").number, std::nullopt);
}

TEST(SpecNumberText, WritesWholeNumbersWithoutAPoint)
{
    EXPECT_EQ(spec_number_text(32), "32");
    EXPECT_EQ(spec_number_text(1e15), "1000000000000000");
    EXPECT_EQ(spec_number_text(0.30000000000000004), "0.3");
    EXPECT_EQ(spec_number_text(1e20), "1e+20");
}

}  // namespace
}  // namespace wb
