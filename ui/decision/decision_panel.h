// SPDX-License-Identifier: Apache-2.0
//
// DecisionPanel: what the "Decision path" dock holds. A small tool row
// (zoom out, zoom in, fit, and whatever the window adds, such as "Decision
// focus"), the diagram, and the details pane listing every step in full.
// Diagram and details share a splitter that stands them one above the
// other in a tall dock and side by side in a wide window.
#pragma once

#include <QWidget>

class QAction;
class QHBoxLayout;
class QLabel;
class QSplitter;
class QToolButton;

namespace wb {

class DecisionDiagram;
class DecisionDetails;

class DecisionPanel : public QWidget {
    Q_OBJECT

public:
    explicit DecisionPanel(QWidget* parent = nullptr);

    DecisionDiagram* diagram() const { return diagram_; }
    DecisionDetails* details() const { return details_; }
    QSplitter* splitter() const { return splitter_; }
    // A button for `action` at the end of the tool row.
    QToolButton* addToolAction(QAction* action);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showZoom(double zoom);

    DecisionDiagram* diagram_ = nullptr;
    DecisionDetails* details_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QHBoxLayout* tools_ = nullptr;
    QLabel* zoom_label_ = nullptr;
};

}  // namespace wb
