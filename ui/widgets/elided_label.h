// SPDX-License-Identifier: Apache-2.0
//
// ElidedLabel: one line of text that gives way in a layout: it takes the
// width it is given and elides what does not fit ("sync-waker-v3:smt_c…"),
// with the whole text in its tooltip.
#pragma once

#include <QString>
#include <QWidget>

namespace wb {

class ElidedLabel : public QWidget {
    Q_OBJECT

public:
    explicit ElidedLabel(const QString& text, QWidget* parent = nullptr);

    const QString& text() const { return text_; }
    QString shownText() const;  // as drawn at the current width

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString text_;
};

}  // namespace wb
