// SPDX-License-Identifier: Apache-2.0
#include "sim/trace_job.h"

#include <exception>

#include "io/trace_input.h"
#include "trace/trace_parser.h"

namespace wb {

TraceJob::TraceJob(QObject* parent) : QObject(parent) {}

TraceJob::~TraceJob()
{
    cancel();
}

void TraceJob::cancel()
{
    thread_.cancel();
    running_ = false;
}

void TraceJob::start(const QString& path, const QString& machine_spec, const Machine& machine,
                     const ReplayOptions& options, std::size_t max_frames)
{
    cancel();
    result_.reset();
    running_ = true;
    auto out = std::make_shared<LoadedTrace>();
    out->path = path;
    out->machine_spec = machine_spec;
    out->machine = machine;
    out->options = options;
    thread_.start(this, [out, max_frames](const JobThread<TraceJob>::Deliver& deliver) {
        try {
            const std::string label = out->path.toStdString();
            const ParsedTrace trace = parse_trace(read_trace_file(label), label);
            if (deliver.cancelled())
                return;
            ReplayOptions asked = out->options;
            asked.progress = [&](double done) {
                deliver([done](TraceJob* j) { emit j->progress(done); });
                return !deliver.cancelled();
            };
            auto keep = [&](ReplayFrame&& frame) {
                if (out->frames.size() < max_frames)
                    out->frames.push_back(std::move(frame));
                else
                    out->capped = true;
            };
            out->result = replay_trace(trace, out->machine, asked, label, {}, keep);
            if (out->result.cancelled || deliver.cancelled())
                return;
            deliver([out](TraceJob* j) {
                j->running_ = false;
                j->result_ = std::make_unique<LoadedTrace>(std::move(*out));
                emit j->finished();
            });
        } catch (const std::exception& e) {
            const QString what = QString::fromStdString(e.what());
            deliver([what](TraceJob* j) {
                j->running_ = false;
                emit j->failed(what);
            });
        }
    });
}

}  // namespace wb
