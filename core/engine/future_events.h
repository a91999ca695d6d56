// SPDX-License-Identifier: Apache-2.0
//
// FutureEvents: the run loop's future-event list. Two kinds of events:
//
// - one-off events (wakeup IPIs, reschedules, timers), pushed once and fired
//   once, in two small binary heaps: one for those due soon, one for those
//   due later;
// - timers: re-armable slots (each CPU's segment end and tick), at most one
//   pending per slot, in an indexed heap over the slots. Re-arming or
//   cancelling a slot moves its pending event in place instead of leaving a
//   stale copy behind, so the heap holds only live events (a handful per
//   busy CPU) however often segments are cut short or ticks stopped. The
//   earliest timer is usually a segment end armed on the event just popped
//   and popped as the next event (a task's steps, one after the other);
//   while it is earlier than every timer in the heap it is held beside the
//   heap instead, so arming and popping it skip the sifts.
//
// Every event gets a sequence number when scheduled, from one counter, and
// events at the same instant fire in that order, whichever part holds them:
// the order is the same as one queue's.
//
// Ghosts: RunMetrics::events counts events as they surfaced in the engine's
// first queue, which cancelled lazily and counted each stale copy when it
// reached the top. To keep that figure (and every published result) the
// same, a cancelled event leaves its key here as a ghost, and ghosts are
// counted once the run passes them. Ghosts cost a 16-byte append each and
// are swept when they pile up, so memory stays bounded.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/event_queue.h"
#include "base/sim_time.h"

namespace wb {

class FutureEvents {
public:
    // Time order, then scheduling order.
    struct Key {
        std::int64_t at;
        std::uint64_t seq;
        friend bool operator<(Key a, Key b) { return a.at != b.at ? a.at < b.at : a.seq < b.seq; }
    };

    // Slots 0..n-1 for timers.
    void set_timer_slots(std::size_t n)
    {
        slots_.assign(n, Slot{});
        // At most one entry per slot: the heap never grows past n.
        timer_heap_.assign(n, Timer{});
        timers_ = 0;
        soonest_.slot = kUnarmed;
    }

    std::uint64_t scheduled() const { return next_seq_; }

    // Always inline: out of line, the wakeup IPI's push (one a wakeup) cost
    // a call and register saves as large as the push itself.
    [[gnu::always_inline]] void push(const Event& e)
    {
        const Once o{{e.at.ns(), next_seq_++}, e.arg, e.kind, e.target};
        (o.key.at - clock_ < kNearNs ? once_ : later_).push(o);
        first_once_ = std::min(first_once_, o.key);
    }

    // Gives slot `timer` the kind and target of every event armed on it (a
    // CPU's segment end or tick): set once instead of stored at every arm.
    void name_slot(int timer, int kind, int target)
    {
        slot(timer).kind = kind;
        slot(timer).target = target;
    }
    // Names slot `timer` and arms it.
    void arm(int timer, Time at, int kind, int target)
    {
        name_slot(timer, kind, target);
        arm(timer, at);
    }
    // Schedules slot `timer` at `at`; a pending event of the slot is cancelled.
    // Always inline: schedule() called it out of line for the tick.
    [[gnu::hot, gnu::always_inline]] void arm(int timer, Time at)
    {
        Slot& s = slot(timer);
        const Timer t{{at.ns(), next_seq_++}, timer};
        if (s.pos == kUnarmed)
            insert(t);
        else
            rearm(s.pos, t);
    }

    // Inline for the common calls of an idle entry: its segment end, already
    // fired, and its tick in a heap of at most two, which needs no sift. Out
    // of line, the tick's cancel cost a call and six register saves.
    [[gnu::always_inline]] void cancel(int timer)
    {
        Slot& s = slot(timer);
        const int pos = s.pos;
        if (pos == kUnarmed)
            return;
        if (pos >= 0 && timers_ <= 2) [[likely]] {
            add_ghost(timer_heap_[static_cast<std::size_t>(pos)].key);
            s.pos = kUnarmed;
            if (static_cast<std::size_t>(pos) != --timers_)
                place(static_cast<std::size_t>(pos), timer_heap_[timers_]);
            return;
        }
        cancel_pending(pos);
    }

    bool armed(int timer) const { return slots_[static_cast<std::size_t>(timer)].pos != kUnarmed; }

    // No live event left (ghosts do not count).
    bool empty() const { return once_.empty() && later_.empty() && timers_ == 0 && soonest_.slot == kUnarmed; }

    // The earliest live event's time; requires !empty().
    Time next_at() const { return Time::ns(earliest().at); }

    // Removes and returns the earliest live event (generation 0).
    Event pop()
    {
        assert(!empty());
        Event e;
        pop_due(Time::max(), e);
        return e;
    }

    // Removes the earliest live event into `e` if there is one due by
    // `until`; false otherwise. The run loop's one look at the fronts per
    // event, where empty(), next_at() and pop() would take three. The
    // common case, the held soonest timer coming first, is small enough to
    // inline into the run loop.
    [[gnu::hot]] bool pop_due(Time until, Event& e)
    {
        if (soonest_.slot == kUnarmed || !(soonest_.key < first_once_))
            return pop_due_from_heaps(until, e);
        if (soonest_.key.at > until.ns())
            return false;
        const Slot& s = slot(soonest_.slot);
        e.kind = s.kind;
        e.target = s.target;
        e.arg = 0;
        const Key key = soonest_.key;
        release_soonest();
        popped(key, e);
        return true;
    }

    // Ghosts the run has passed: those before the event (at, seq), or all
    // those at or before `until`. Each ghost is counted once; the count
    // includes those swept while popping.
    std::uint64_t take_ghosts_before(Time at, std::uint64_t seq)
    {
        const Key cut{at.ns(), seq};
        return take([cut](Key g) { return g < cut; });
    }
    std::uint64_t take_ghosts_until(Time until)
    {
        return take([until](Key g) { return g.at <= until.ns(); });
    }
    // Whether a ghost not yet counted is due by `until`.
    bool ghost_due_by(Time until) const
    {
        return std::any_of(ghosts_.begin(), ghosts_end(), [until](Key g) { return g.at <= until.ns(); });
    }

    bool has_ghosts() const { return ghost_count_ > 0; }
    Time latest_ghost() const
    {
        assert(has_ghosts());
        return Time::ns(std::max_element(ghosts_.begin(), ghosts_end(), [](Key a, Key b) { return a.at < b.at; })->at);
    }

private:
    struct Once {
        Key key;
        std::int64_t arg;
        int kind;
        int target;
    };
    // A binary heap of one-off events, earliest first. Its storage grows
    // out of line, so that a push is a store and a short sift with no
    // reallocation code around it (std::vector's made every push save and
    // restore six registers).
    class OnceHeap {
    public:
        bool empty() const { return n_ == 0; }
        const Once& front() const { return v_[0]; }
        // Always inline, as FutureEvents::push() is: the grow() branch
        // keeps the inlined path free of register saves.
        [[gnu::always_inline]] void push(const Once& o)
        {
            if (n_ == v_.size())
                grow();
            std::size_t pos = n_++;
            while (pos > 0) {
                const std::size_t parent = (pos - 1) / 2;
                if (!(o.key < v_[parent].key))
                    break;
                v_[pos] = v_[parent];
                pos = parent;
            }
            v_[pos] = o;
        }
        Once pop()
        {
            const Once top = v_[0];
            const Once last = v_[--n_];
            std::size_t pos = 0;
            for (;;) {
                std::size_t child = 2 * pos + 1;
                if (child >= n_)
                    break;
                if (child + 1 < n_ && v_[child + 1].key < v_[child].key)
                    ++child;
                if (!(v_[child].key < last.key))
                    break;
                v_[pos] = v_[child];
                pos = child;
            }
            v_[pos] = last;
            return top;
        }

    private:
        [[gnu::noinline]] void grow() { v_.resize(std::max<std::size_t>(16, 2 * v_.size())); }
        std::vector<Once> v_;  // the first n_ entries
        std::size_t n_ = 0;
    };
    struct Timer {
        Key key;
        int slot;
    };
    // Where a slot's pending event is: its index in timer_heap_, or one of these.
    static constexpr int kUnarmed = -1;
    static constexpr int kSoonest = -2;  // held in soonest_
    struct Slot {
        int pos = kUnarmed;
        int kind = 0;
        int target = 0;
    };
    static constexpr std::size_t kMinSweep = 4096;
    static constexpr Key kNever{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::uint64_t>::max()};
    // One-off events due within this of the last popped one go to once_,
    // later ones to later_. Far-off timers (OS noise's, one per CPU, a
    // fraction of a second ahead) then stay out of the way of the IPIs
    // and reschedules that come and go every few microseconds: their heap
    // stays a few entries deep. Either heap may hold any event; which one
    // only affects speed, never the order (pop() takes the earlier front).
    static constexpr std::int64_t kNearNs = 1'000'000;

    Slot& slot(int timer) { return slots_[static_cast<std::size_t>(timer)]; }
    const Slot& slot(int timer) const { return slots_[static_cast<std::size_t>(timer)]; }

    Key earliest() const
    {
        assert(!empty());
        Key k = kNever;
        if (soonest_.slot != kUnarmed)
            k = soonest_.key;
        else if (timers_ > 0)
            k = timer_heap_.front().key;
        return std::min(k, first_once_);
    }

    // pop_due() when the earliest event is a one-off or in the timer heap.
    [[gnu::hot]] bool pop_due_from_heaps(Time until, Event& e)
    {
        OnceHeap* heap = once_.empty() ? &later_ : &once_;
        if (!later_.empty() && later_.front().key < heap->front().key)
            heap = &later_;
        const Timer* timer = soonest_.slot != kUnarmed ? &soonest_ : timers_ > 0 ? &timer_heap_.front() : nullptr;
        Key key;
        if (timer && (heap->empty() || timer->key < heap->front().key)) {
            if (timer->key.at > until.ns())
                return false;
            const Slot& s = slot(timer->slot);
            key = timer->key;
            e.kind = s.kind;
            e.target = s.target;
            e.arg = 0;
            if (timer == &soonest_)
                release_soonest();
            else
                remove_timer_at(0);
        } else {
            if (heap->empty() || heap->front().key.at > until.ns())
                return false;
            const Once o = heap->pop();
            key = o.key;
            e.kind = o.kind;
            e.target = o.target;
            e.arg = o.arg;
            first_once_ = kNever;
            if (!once_.empty())
                first_once_ = once_.front().key;
            if (!later_.empty())
                first_once_ = std::min(first_once_, later_.front().key);
        }
        popped(key, e);
        return true;
    }

    // The rest of a pop: the event's time and order, and the ghosts it passed
    // when they are due for a sweep.
    void popped(Key key, Event& e)
    {
        e.at = Time::ns(key.at);
        e.seq = key.seq;
        e.generation = 0;
        clock_ = key.at;
        if (ghost_count_ >= sweep_at_)
            sweep_ghosts(key);
    }
    void sweep_ghosts(Key before)
    {
        surfaced_ += count_ghosts([before](Key g) { return g < before; });
        sweep_at_ = std::max<std::size_t>(kMinSweep, 2 * ghost_count_);
    }

    // Adds a timer whose slot has none pending. The invariant: soonest_,
    // when it holds one, is earlier than every timer in the heap. Always
    // inline: schedule()'s tick arm called it out of line, and the call
    // cost more than its usual path (a compare and a store or two).
    [[gnu::always_inline]] void insert(Timer t)
    {
        if (soonest_.slot == kUnarmed) {
            if (timers_ == 0 || t.key < timer_heap_.front().key) {
                hold_soonest(t);
                return;
            }
        } else if (t.key < soonest_.key) {
            const Timer was = soonest_;
            hold_soonest(t);
            sift_up(timers_++, was);
            return;
        }
        sift_up(timers_++, t);
    }
    // Cancels the event at `pos` (kSoonest or in the heap).
    [[gnu::noinline]] void cancel_pending(int pos)
    {
        if (pos == kSoonest) {
            add_ghost(soonest_.key);
            release_soonest();
            return;
        }
        const auto at = static_cast<std::size_t>(pos);
        add_ghost(timer_heap_[at].key);
        remove_timer_at(at);
    }
    // Replaces the pending event of t's slot, which is at `pos`, by t.
    // Out of line: most arms find their slot free, and inlined into them
    // this path (a ghost's append can grow the vector) made every caller
    // save registers and set up a stack frame.
    [[gnu::noinline]] void rearm(int pos, Timer t)
    {
        if (pos == kSoonest) {
            add_ghost(soonest_.key);
            release_soonest();
            insert(t);
            return;
        }
        const auto at = static_cast<std::size_t>(pos);
        const Key old = timer_heap_[at].key;
        add_ghost(old);
        if (soonest_.slot != kUnarmed && t.key < soonest_.key) {
            remove_timer_at(at);
            insert(t);
            return;
        }
        // Time never goes backwards and seq only grows, but a new segment
        // may end before the one it replaces.
        if (t.key < old)
            sift_up(at, t);
        else
            sift_down(at, t);
    }
    // A ghost's append; its storage grows out of line, as OnceHeap's does,
    // so that the inlined cancel() keeps no reallocation code around.
    void add_ghost(Key k)
    {
        if (ghost_count_ == ghosts_.size())
            grow_ghosts();
        ghosts_[ghost_count_++] = k;
    }
    [[gnu::noinline]] void grow_ghosts() { ghosts_.resize(std::max<std::size_t>(64, 2 * ghosts_.size())); }
    std::vector<Key>::iterator ghosts_end() { return ghosts_.begin() + static_cast<std::ptrdiff_t>(ghost_count_); }
    std::vector<Key>::const_iterator ghosts_end() const
    {
        return ghosts_.begin() + static_cast<std::ptrdiff_t>(ghost_count_);
    }
    void hold_soonest(Timer t)
    {
        soonest_ = t;
        slot(t.slot).pos = kSoonest;
    }
    // The heap's front is the earliest timer again.
    void release_soonest()
    {
        slot(soonest_.slot).pos = kUnarmed;
        soonest_.slot = kUnarmed;
    }

    void place(std::size_t pos, const Timer& t)
    {
        timer_heap_[pos] = t;
        slot(t.slot).pos = static_cast<int>(pos);
    }
    // Moves t, meant for `pos`, up to where it belongs. Takes it by value
    // rather than reading it back: a load of what was just stored stalls.
    // Always inline: the tick's insert behind a held segment end called it.
    [[gnu::always_inline]] void sift_up(std::size_t pos, Timer t)
    {
        while (pos > 0) {
            const std::size_t parent = (pos - 1) / 2;
            if (!(t.key < timer_heap_[parent].key))
                break;
            place(pos, timer_heap_[parent]);
            pos = parent;
        }
        place(pos, t);
    }
    void sift_down(std::size_t pos, Timer t)
    {
        const std::size_t n = timers_;
        for (;;) {
            std::size_t child = 2 * pos + 1;
            if (child >= n)
                break;
            if (child + 1 < n && timer_heap_[child + 1].key < timer_heap_[child].key)
                ++child;
            if (!(timer_heap_[child].key < t.key))
                break;
            place(pos, timer_heap_[child]);
            pos = child;
        }
        place(pos, t);
    }
    void remove_timer_at(std::size_t pos)
    {
        const Key removed = timer_heap_[pos].key;
        slot(timer_heap_[pos].slot).pos = kUnarmed;
        const Timer last = timer_heap_[--timers_];
        if (pos == timers_)
            return;
        if (last.key < removed)
            sift_up(pos, last);
        else
            sift_down(pos, last);
    }

    template <class Passed>
    std::uint64_t count_ghosts(Passed passed)
    {
        const auto rest = std::remove_if(ghosts_.begin(), ghosts_end(), passed);
        const auto n = static_cast<std::uint64_t>(ghosts_end() - rest);
        ghost_count_ = static_cast<std::size_t>(rest - ghosts_.begin());
        return n;
    }
    template <class Passed>
    std::uint64_t take(Passed passed)
    {
        const std::uint64_t n = surfaced_ + count_ghosts(passed);
        surfaced_ = 0;
        return n;
    }

    OnceHeap once_;
    OnceHeap later_;
    Key first_once_ = kNever;        // the earliest key in once_ and later_: one comparison tells a timer comes first
    std::int64_t clock_ = 0;         // time of the last popped event
    std::vector<Timer> timer_heap_;  // the first timers_ entries, sized for every slot once
    std::size_t timers_ = 0;
    Timer soonest_{{0, 0}, kUnarmed};  // the earliest timer while it is earlier than all in the heap
    std::vector<Slot> slots_;
    std::vector<Key> ghosts_;  // the first ghost_count_ entries
    std::size_t ghost_count_ = 0;
    std::size_t sweep_at_ = kMinSweep;
    std::uint64_t surfaced_ = 0;
    std::uint64_t next_seq_ = 0;
};

}  // namespace wb
