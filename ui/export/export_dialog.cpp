// SPDX-License-Identifier: Apache-2.0
#include "export/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>

#include "export/export_format.h"
#include "export/export_size.h"

namespace wb {

namespace {

// "Throughput over simulated time" -> <Pictures>/wakebench-throughput-over-simulated-time.png
QString suggested_path(const QString& view)
{
    static const QRegularExpression not_a_word(QStringLiteral("[^a-z0-9]+"));
    QString slug = view.toLower().replace(not_a_word, QStringLiteral("-"));
    slug.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (folder.isEmpty())
        folder = QDir::homePath();
    return QDir(folder).filePath(
        QStringLiteral("wakebench-%1.png").arg(slug.isEmpty() ? QStringLiteral("view") : slug));
}

}  // namespace

ExportDialog::ExportDialog(const QString& view, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Export %1").arg(view));
    auto* form = new QFormLayout(this);
    form->addRow(tr("View:"), new QLabel(view, this));

    preset_ = new QComboBox(this);
    preset_->setObjectName(QStringLiteral("exportPreset"));
    for (const QSize& size : export_size_presets())
        preset_->addItem(tr("%1 \u00d7 %2").arg(size.width()).arg(size.height()), size);
    preset_->addItem(tr("Custom"));
    form->addRow(tr("Size:"), preset_);

    auto* custom = new QHBoxLayout;
    width_ = new QSpinBox(this);
    width_->setObjectName(QStringLiteral("exportWidth"));
    height_ = new QSpinBox(this);
    height_->setObjectName(QStringLiteral("exportHeight"));
    for (QSpinBox* side : {width_, height_}) {
        side->setRange(kMinExportSide, kMaxExportSide);
        side->setSuffix(tr(" px"));
    }
    custom->addWidget(width_);
    custom->addWidget(new QLabel(QStringLiteral("\u00d7"), this));
    custom->addWidget(height_);
    form->addRow(QString(), custom);

    auto* file = new QHBoxLayout;
    path_ = new QLineEdit(this);
    path_->setObjectName(QStringLiteral("exportPath"));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    file->addWidget(path_, 1);
    file->addWidget(browse);
    form->addRow(tr("File:"), file);
    format_ = new QLabel(this);
    format_->setObjectName(QStringLiteral("exportFormat"));
    form->addRow(QString(), format_);

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    form->addRow(buttons_);

    connect(preset_, &QComboBox::currentIndexChanged, this, &ExportDialog::onPresetChosen);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(path_, &QLineEdit::textChanged, this, &ExportDialog::updateFormat);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

    onPresetChosen(0);
    path_->setText(suggested_path(view));
    updateFormat();
}

ExportDialog::~ExportDialog() = default;

QSize ExportDialog::pictureSize() const
{
    return {width_->value(), height_->value()};
}

QString ExportDialog::path() const
{
    return path_->text();
}

void ExportDialog::setPath(const QString& path)
{
    path_->setText(path);
}

void ExportDialog::setPictureSize(const QSize& size)
{
    const int preset = preset_->findData(size);
    preset_->setCurrentIndex(preset >= 0 ? preset : preset_->count() - 1);
    width_->setValue(size.width());
    height_->setValue(size.height());
}

void ExportDialog::onPresetChosen(int index)
{
    const QVariant preset = preset_->itemData(index);
    const bool custom = !preset.isValid();
    width_->setEnabled(custom);
    height_->setEnabled(custom);
    if (!custom) {
        width_->setValue(preset.toSize().width());
        height_->setValue(preset.toSize().height());
    }
}

void ExportDialog::browse()
{
    const QString chosen =
        QFileDialog::getSaveFileName(this, windowTitle(), path(), tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (!chosen.isEmpty())
        path_->setText(chosen);
}

void ExportDialog::updateFormat()
{
    const std::optional<ImageFormat> format = image_format_for(path());
    if (!format)
        format_->setText(tr("The name must end in .png or .svg."));
    else
        format_->setText(*format == ImageFormat::Png ? tr("PNG image") : tr("SVG drawing (vectors and text)"));
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(format.has_value());
}

}  // namespace wb
