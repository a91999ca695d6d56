// SPDX-License-Identifier: Apache-2.0
#include "sweep/sweep_menu.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QThread>

#include "message_box.h"
#include "sweep/sweep_window.h"

namespace wb {

namespace {

SweepWindow* new_window(QWidget* parent)
{
    auto* window = new SweepWindow(parent);
    window->setAttribute(Qt::WA_DeleteOnClose);
    return window;
}

}  // namespace

void add_sweep_menu(QMenu* results, QWidget* parent)
{
    QMenu* sweep = results->addMenu(QObject::tr("S&weep"));
    sweep->setObjectName(QStringLiteral("sweepMenu"));
    sweep->addAction(QObject::tr("&Open a sweep's result…"), parent, [parent] {
        const QString path = QFileDialog::getOpenFileName(parent, QObject::tr("Open a sweep's result"), QString(),
                                                          QObject::tr("Sweep results (*.json *.json.*)"));
        if (path.isEmpty())
            return;
        SweepWindow* window = new_window(parent);
        QString error;
        if (!window->openResult(path, &error)) {
            delete window;
            show_message_box(parent, QObject::tr("Cannot open the sweep's result"), error);
            return;
        }
        window->show();
    });
    sweep->addAction(QObject::tr("&Run a sweep file…"), parent, [parent] {
        const QString file = QFileDialog::getOpenFileName(parent, QObject::tr("Run a sweep file"), QString(),
                                                          QObject::tr("Sweep files (*.json)"));
        if (file.isEmpty())
            return;
        const QFileInfo info(file);
        const QString out = QFileDialog::getSaveFileName(
            parent, QObject::tr("Write the result to"),
            info.dir().filePath(info.completeBaseName() + QStringLiteral("-result.json")),
            QObject::tr("JSON (*.json)"));
        if (out.isEmpty())
            return;
        SweepWindow* window = new_window(parent);
        window->show();
        window->runSweep(file, out, std::max(1, QThread::idealThreadCount()));
    });
}

}  // namespace wb
