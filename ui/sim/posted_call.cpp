// SPDX-License-Identifier: Apache-2.0
#include "sim/posted_call.h"

#include <QCoreApplication>

#include "sim/thread_handoff.h"

namespace wb {

namespace {

class PostedCall : public QEvent {
public:
    explicit PostedCall(std::function<void()> call) : QEvent(type()), call_(std::move(call)) {}

    static QEvent::Type type()
    {
        static const auto t = static_cast<QEvent::Type>(QEvent::registerEventType());
        return t;
    }
    void run() { call_(); }

private:
    std::function<void()> call_;
};

}  // namespace

bool CallReceiver::event(QEvent* e)
{
    handoff_acquire(e);  // before the first read of it: its type
    if (e->type() != PostedCall::type())
        return QObject::event(e);
    static_cast<PostedCall*>(e)->run();
    return true;
}

void post_call(CallReceiver* receiver, std::function<void()> call)
{
    auto* event = new PostedCall(std::move(call));
    handoff_release(event);  // everything written into the event is before this
    QCoreApplication::postEvent(receiver, event);
}

}  // namespace wb
