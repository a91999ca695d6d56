// SPDX-License-Identifier: Apache-2.0
#include "engine/future_events.h"

#include <gtest/gtest.h>

#include <vector>

namespace wb {
namespace {

// The kinds of the events popped, in order.
std::vector<int> drain(FutureEvents& q)
{
    std::vector<int> kinds;
    while (!q.empty())
        kinds.push_back(q.pop().kind);
    return kinds;
}

TEST(FutureEvents, SameInstantFiresInScheduleOrderAcrossTimersAndOneOffs)
{
    FutureEvents q;
    q.set_timer_slots(4);
    q.push({Time::ns(10), 0, 1, 0, 0, 0});
    q.arm(2, Time::ns(10), 2, 7);
    q.push({Time::ns(10), 0, 3, 0, 0, 0});
    q.arm(0, Time::ns(5), 4, 7);
    EXPECT_EQ(q.next_at(), Time::ns(5));
    EXPECT_EQ(drain(q), (std::vector<int>{4, 1, 2, 3}));
    EXPECT_EQ(q.scheduled(), 4u);
}

TEST(FutureEvents, PopDueTakesOnlyWhatIsDueAndCarriesTheEventsFields)
{
    FutureEvents q;
    q.set_timer_slots(2);
    q.arm(1, Time::ns(20), 5, 1);
    q.push({Time::ns(10), 0, 6, 3, 0, 42});
    q.push({Time::ms(50), 0, 7, 0, 0, 0});  // far ahead: the second one-off heap
    Event e;
    e.arg = 99;
    ASSERT_TRUE(q.pop_due(Time::ns(15), e));
    EXPECT_EQ(e.kind, 6);
    EXPECT_EQ(e.target, 3);
    EXPECT_EQ(e.arg, 42);
    EXPECT_EQ(e.at, Time::ns(10));
    EXPECT_FALSE(q.pop_due(Time::ns(15), e));  // the timer at 20 is not due yet
    ASSERT_TRUE(q.pop_due(Time::ns(20), e));
    EXPECT_EQ(e.kind, 5);
    EXPECT_EQ(e.target, 1);
    EXPECT_EQ(e.arg, 0);  // a timer has none, whatever e held
    EXPECT_FALSE(q.armed(1));
    EXPECT_FALSE(q.pop_due(Time::ms(49), e));
    ASSERT_TRUE(q.pop_due(Time::ms(50), e));
    EXPECT_EQ(e.kind, 7);
    EXPECT_TRUE(q.empty());
    EXPECT_FALSE(q.pop_due(Time::s(1), e));
}

TEST(FutureEvents, RearmingMovesTheTimerAndTakesANewPlaceInTheOrder)
{
    FutureEvents q;
    q.set_timer_slots(2);
    q.arm(0, Time::ns(20), 1, 0);
    q.push({Time::ns(10), 0, 2, 0, 0, 0});
    q.arm(0, Time::ns(10), 1, 0);  // now after the one-off pushed before it
    q.arm(1, Time::ns(30), 3, 1);
    q.arm(1, Time::ns(5), 3, 1);  // earlier than before
    EXPECT_TRUE(q.armed(0));
    EXPECT_EQ(drain(q), (std::vector<int>{3, 2, 1}));
    EXPECT_FALSE(q.armed(0));
}

TEST(FutureEvents, CancelledTimersNeverFireButCountAsGhostsOnceReached)
{
    FutureEvents q;
    q.set_timer_slots(2);
    q.arm(0, Time::ns(10), 1, 0);
    q.arm(0, Time::ns(40), 1, 0);  // the 10 ns copy is a ghost
    q.arm(1, Time::ns(20), 2, 1);
    q.cancel(1);  // a ghost at 20 ns
    q.cancel(1);  // nothing armed: no second ghost
    q.push({Time::ns(30), 0, 3, 0, 0, 0});
    const Event e = q.pop();
    EXPECT_EQ(e.kind, 3);
    EXPECT_EQ(q.take_ghosts_before(e.at, e.seq), 2u);
    EXPECT_EQ(q.take_ghosts_before(e.at, e.seq), 0u);  // counted once
    EXPECT_EQ(drain(q), (std::vector<int>{1}));
}

TEST(FutureEvents, GhostsBeyondTheCutStayForLater)
{
    FutureEvents q;
    q.set_timer_slots(1);
    q.arm(0, Time::ns(100), 1, 0);
    q.cancel(0);
    q.arm(0, Time::ns(50), 1, 0);
    q.cancel(0);
    EXPECT_TRUE(q.empty());
    EXPECT_TRUE(q.ghost_due_by(Time::ns(50)));
    EXPECT_EQ(q.latest_ghost(), Time::ns(100));
    EXPECT_EQ(q.take_ghosts_until(Time::ns(60)), 1u);
    EXPECT_FALSE(q.ghost_due_by(Time::ns(99)));
    EXPECT_EQ(q.take_ghosts_until(Time::ns(100)), 1u);
    EXPECT_FALSE(q.has_ghosts());
}

// The earliest timer is held beside the heap: an earlier one takes its
// place, and cancelling or re-arming whichever is held keeps the order.
TEST(FutureEvents, TheEarliestTimerKeepsItsPlaceInTheOrderWhereverItIsHeld)
{
    FutureEvents q;
    q.set_timer_slots(4);
    q.arm(0, Time::ns(10), 0, 0);  // held
    q.arm(1, Time::ns(5), 1, 1);   // held instead; slot 0 goes to the heap
    q.arm(2, Time::ns(7), 2, 2);
    q.cancel(1);                  // the held one: a ghost at 5 ns
    q.arm(0, Time::ns(3), 0, 0);  // from the heap, now the earliest of all
    q.push({Time::ns(3), 0, 9, 0, 0, 0});
    EXPECT_EQ(q.next_at(), Time::ns(3));
    Event e;
    ASSERT_TRUE(q.pop_due(Time::ns(3), e));
    EXPECT_EQ(e.kind, 0);  // armed before the one-off at the same instant
    ASSERT_TRUE(q.pop_due(Time::ns(3), e));
    EXPECT_EQ(e.kind, 9);
    EXPECT_FALSE(q.pop_due(Time::ns(6), e));
    EXPECT_EQ(q.take_ghosts_until(Time::ns(6)), 1u);  // the cancelled 5 ns
    q.arm(3, Time::ns(6), 3, 3);
    EXPECT_EQ(drain(q), (std::vector<int>{3, 2}));
    EXPECT_EQ(q.take_ghosts_until(Time::ns(100)), 1u);  // slot 0's first arming at 10 ns
    EXPECT_FALSE(q.armed(0));
}

// A cancel in a heap of two moves the other timer into the freed place;
// the slot must know where it went for its next re-arm.
TEST(FutureEvents, CancellingOneOfTwoHeapedTimersKeepsTheOtherReArmable)
{
    FutureEvents q;
    q.set_timer_slots(3);
    q.arm(2, Time::ns(5), 2, 2);   // held beside the heap
    q.arm(0, Time::ns(10), 0, 0);  // heap front
    q.arm(1, Time::ns(20), 1, 1);  // behind it
    q.cancel(0);                   // a ghost at 10 ns; slot 1 moves to the front
    EXPECT_FALSE(q.armed(0));
    q.arm(1, Time::ns(30), 1, 1);  // re-armed where it now is: a ghost at 20 ns
    EXPECT_EQ(q.pop().kind, 2);
    const Event e = q.pop();
    EXPECT_EQ(e.kind, 1);
    EXPECT_EQ(e.at, Time::ns(30));
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.take_ghosts_until(Time::ns(100)), 2u);
}

TEST(FutureEvents, ManyTimersComeOutSorted)
{
    FutureEvents q;
    constexpr int kSlots = 64;
    q.set_timer_slots(kSlots);
    // A scrambled but deterministic set of times, re-armed once each.
    for (int i = 0; i < kSlots; ++i)
        q.arm(i, Time::ns((i * 37) % 101 + 200), i, i);
    for (int i = 0; i < kSlots; i += 2)
        q.arm(i, Time::ns((i * 53) % 97), i, i);
    for (int i = 1; i < kSlots; i += 4)
        q.cancel(i);
    Time last;
    int popped = 0;
    while (!q.empty()) {
        const Event e = q.pop();
        EXPECT_GE(e.at, last);
        EXPECT_NE(e.kind % 4, 1) << "cancelled slot " << e.kind << " fired";
        last = e.at;
        ++popped;
    }
    EXPECT_EQ(popped, kSlots - kSlots / 4);
}

}  // namespace
}  // namespace wb
