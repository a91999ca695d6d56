// SPDX-License-Identifier: Apache-2.0
//
// A call run on another thread's event loop, handed over as an event that
// is built whole before it is posted. Qt orders the hand-over with a lock
// of its own, which ThreadSanitizer cannot see in Debian's uninstrumented
// Qt; built whole first, the event can be released to the receiving thread
// after the last write to it and acquired there before the first read, so
// that TSan knows the order too (thread_handoff.h). QMetaObject::invokeMethod
// builds its copy of the call inside Qt, after any release we could make.
#pragma once

#include <QEvent>
#include <QObject>
#include <functional>

namespace wb {

// Lives on the thread the calls are to run on.
class CallReceiver : public QObject {
public:
    using QObject::QObject;

protected:
    bool event(QEvent* e) override;
};

// Runs `call` on `receiver`'s thread, in its event loop.
void post_call(CallReceiver* receiver, std::function<void()> call);

}  // namespace wb
