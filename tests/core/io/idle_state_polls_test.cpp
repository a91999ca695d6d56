// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "io/input_error.h"
#include "io/topology_json.h"
#include "topology/synthetic.h"

namespace wb {
namespace {

Machine with_states()
{
    Machine m = parse_machine_json(machine_to_json(parse_synthetic("synthetic:core=2")), "base");
    m.idle_states = {{"POLL", 0, 0, true}, {"C1", 1000, 1000, true}, {"C6", 100000, 300000, false}};
    return m;
}

TEST(IdleStatePolls, RoundTripsThroughTheMachineFile)
{
    const Machine m = with_states();
    const std::string text = machine_to_json(m);
    EXPECT_NE(text.find("\"polls\": true"), std::string::npos);
    EXPECT_EQ(text.find("\"polls\": false"), std::string::npos);  // the default is left out
    const Machine back = parse_machine_json(text, "round trip");
    ASSERT_EQ(back.idle_states.size(), 3u);
    EXPECT_TRUE(back.idle_states[0].polls);
    EXPECT_TRUE(back.idle_states[1].polls);
    EXPECT_FALSE(back.idle_states[2].polls);
}

TEST(IdleStatePolls, ANonBooleanIsRejectedWithItsPointer)
{
    std::string text = machine_to_json(with_states());
    const std::string key = "\"polls\": true";
    text.replace(text.find(key), key.size(), "\"polls\": \"yes\"");
    try {
        parse_machine_json(text, "bad");
        FAIL() << "accepted a string for polls";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("/idle_states/0/polls: expected true"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace wb
