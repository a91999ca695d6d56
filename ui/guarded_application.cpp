// SPDX-License-Identifier: Apache-2.0
#include "guarded_application.h"

#include <cstdio>
#include <exception>

namespace wb {

namespace {

GuardedApplication::Reporter& reporter()
{
    static GuardedApplication::Reporter r;
    return r;
}

int caught_count = 0;

}  // namespace

GuardedApplication::GuardedApplication(int& argc, char** argv) : QApplication(argc, argv) {}

bool GuardedApplication::notify(QObject* receiver, QEvent* event)
{
    QString what;
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
        what = QString::fromStdString(e.what());
    } catch (...) {
        what = QStringLiteral("an exception that is not a std::exception");
    }
    ++caught_count;
    if (reporter())
        reporter()(what);
    else
        std::fprintf(stderr, "wakebench: internal error, caught at the event loop: %s\n", qPrintable(what));
    return false;
}

void GuardedApplication::setReporter(Reporter r)
{
    reporter() = std::move(r);
}

int GuardedApplication::caught()
{
    return caught_count;
}

}  // namespace wb
