// SPDX-License-Identifier: Apache-2.0
//
// DecisionOverlay: one wakeup drawn over the topology grid: the waker's CPU
// (W), the wakee's previous CPU (P), wake_affine()'s target (T), the CPUs
// the idle scans examined, numbered in scan order, the chosen CPU ringed,
// and an arrow from the waker to where the wakee lands, coloured by its
// distance class. For a wakeup replayed from a trace, the kernel's own
// choice too: a dashed ring and a K tag, so that where the model and the
// kernel part is seen at once. One item per scene, repainted from the
// record it holds.
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QRectF>
#include <vector>

#include "sched/decision.h"

namespace wb {

class DecisionOverlay : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };

    // cells[cpu]: each CPU's cell in scene coordinates.
    explicit DecisionOverlay(std::vector<QRectF> cells);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    void showRecord(const DecisionRecord& rec);
    void clearRecord();
    bool hasRecord() const { return has_record_; }
    // The CPU the kernel chose for this wakeup; kNoCpu: none shown.
    void setKernelCpu(CpuId cpu);
    CpuId kernelCpu() const { return kernel_cpu_; }
    const DecisionRecord& record() const { return rec_; }
    // The number drawn on `cpu`'s cell: its first place in the scan, from 1; 0 if not scanned.
    int scanNumber(CpuId cpu) const;

private:
    QRectF cell(CpuId cpu) const;
    void paintArrow(QPainter* painter, const QColor& colour) const;
    void paintKernel(QPainter* painter) const;

    std::vector<QRectF> cells_;
    QRectF bounds_;
    bool has_record_ = false;
    CpuId kernel_cpu_ = kNoCpu;
    DecisionRecord rec_;
};

}  // namespace wb
