// SPDX-License-Identifier: Apache-2.0
//
// ExportDialog: Ctrl+E's questions before a view is exported. The picture's
// size (1920 x 1080, 1280 x 720 or any width and height) and its file; the
// file's suffix picks the format, so OK waits for a .png or .svg name.
#pragma once

#include <QDialog>
#include <QSize>
#include <QString>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace wb {

class ExportDialog : public QDialog {
    Q_OBJECT

public:
    // `view` names what is exported ("the decision diagram"); the file
    // offered first is named after it, in the user's pictures folder.
    explicit ExportDialog(const QString& view, QWidget* parent = nullptr);
    ~ExportDialog() override;

    QSize pictureSize() const;
    QString path() const;
    void setPath(const QString& path);
    // A preset's size selects it; any other is a custom size.
    void setPictureSize(const QSize& size);

private:
    void onPresetChosen(int index);
    void browse();
    void updateFormat();

    QComboBox* preset_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QLineEdit* path_ = nullptr;
    QLabel* format_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace wb
