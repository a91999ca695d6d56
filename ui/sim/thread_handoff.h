// SPDX-License-Identifier: Apache-2.0
//
// The two ends of a hand-over between threads, told to ThreadSanitizer:
// what one thread wrote before handoff_release(token) is seen by another
// after handoff_acquire(token). Needed where Qt orders the hand-over with a
// lock of its own that TSan cannot see, Debian's Qt not being built for it
// (posted_call.h). They cost nothing outside a -fsanitize=thread build.
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace wb {

inline void handoff_release([[maybe_unused]] const void* token)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_release(const_cast<void*>(token));
#endif
}

inline void handoff_acquire([[maybe_unused]] const void* token)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(const_cast<void*>(token));
#endif
}

}  // namespace wb
