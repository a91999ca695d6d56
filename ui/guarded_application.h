// SPDX-License-Identifier: Apache-2.0
//
// GuardedApplication: Qt's event loop does not carry C++ exceptions, so one
// thrown from a slot, a timer or an event handler would end the program and
// take the user's session with it. notify() catches it at that boundary,
// hands its message to the reporter (the window shows it), and the event
// loop goes on. What the core reports as input errors is caught nearer its
// source and says more; this is the last line.
#pragma once

#include <QApplication>
#include <QString>
#include <functional>

namespace wb {

class GuardedApplication : public QApplication {
public:
    GuardedApplication(int& argc, char** argv);

    bool notify(QObject* receiver, QEvent* event) override;

    // Called on the GUI thread with what the escaped exception said. None
    // set: the message goes to standard error.
    using Reporter = std::function<void(const QString& what)>;
    static void setReporter(Reporter reporter);
    // How many exceptions notify() has caught.
    static int caught();
};

}  // namespace wb
