// SPDX-License-Identifier: Apache-2.0
//
// The simulation thread as the window drives it: load, step, run, pause,
// breakpoints, the next divergence, a run that breaks, runs dropped and a
// clean stop, all through queued calls and signals.
#include <QElapsedTimer>
#include <QObject>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <utility>
#include <vector>

#include "engine/simulator.h"
#include "io/topology_library.h"
#include "plugin/plugin_loader.h"
#include "session/lockstep_run.h"
#include "session/scenario_session.h"
#include "sim/sim_session.h"

namespace wb {

namespace {

SessionSetup setup_of(const std::string& machine, const std::string& workload, std::vector<std::string> policies)
{
    Scenario s;
    s.name = "test";
    s.machine = machine;
    s.cases = {{"case", workload}};
    s.policies = std::move(policies);
    return make_session_setup(s, "test.json", 0);
}

// The frame the session shows once `count` signals of `spy` have come.
bool wait_count(QSignalSpy& spy, int count, int ms = 60000)
{
    QElapsedTimer t;
    t.start();
    while (spy.count() < count && t.elapsed() < ms)
        spy.wait(200);
    return spy.count() >= count;
}

}  // namespace

class SimSessionTest : public QObject {
    Q_OBJECT

private slots:
    void loadSendsOnePausedFrame()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        session.load(setup_of("teaching-8", "pipe:loops=100", {"baseline", "sync-waker-v3"}));
        QVERIFY(wait_count(frames, 1));
        const SimFrame& f = session.lastFrame();
        QCOMPARE(f.state, SimState::Paused);
        QCOMPARE(f.runs.size(), std::size_t{2});
        QCOMPARE(f.runs[0].cpus.size(), std::size_t{8});
        QCOMPARE(f.runs[0].now, Time());
        QCOMPARE(f.runs[1].policy, std::string("sync-waker-v3"));
    }

    void stepGivesExactlyOneRecordPerPolicy()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        QSignalSpy steps(&session, &SimSession::stepped);
        session.load(setup_of("teaching-8", "pipe:loops=100", {"baseline", "sync-waker-v3", "baseline"}));
        QVERIFY(wait_count(frames, 1));
        for (int k = 0; k < 3; ++k) {
            session.step();
            QVERIFY(wait_count(steps, k + 1));
            const auto records = steps.at(k).at(0).value<StepRecords>();
            QCOMPARE(records.records.size(), std::size_t{3});
            for (const auto& r : records.records) {
                QVERIFY(r.has_value());
                QCOMPARE(r->seq, static_cast<std::uint64_t>(k));
            }
        }
        // Nothing more comes without being asked.
        QTest::qWait(100);
        QCOMPARE(steps.count(), 3);
        QCOMPARE(session.lastFrame().state, SimState::Paused);
        QCOMPARE(session.lastFrame().runs[0].decisions, std::uint64_t{3});
    }

    void runsPausesAndRunsToTheEnd()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        QSignalSpy states(&session, &SimSession::stateChanged);
        QSignalSpy stopped(&session, &SimSession::stopped);
        session.load(setup_of("teaching-8", "pipe:loops=20000", {"baseline"}));
        QVERIFY(wait_count(frames, 1));
        // Throttled at first (1 ms of simulated time per second), so that a
        // fast build cannot finish before the test sees it running.
        session.setSpeed(1e-3);
        session.run();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Running, 10000);
        session.pause();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Paused, 10000);
        QTest::qWait(50);
        const Time paused_at = session.lastFrame().runs[0].now;
        QTest::qWait(150);
        QCOMPARE(session.lastFrame().runs[0].now, paused_at);  // paused means paused
        session.setSpeed(0);
        session.run();
        QVERIFY(stopped.wait(120000) || stopped.count() > 0);
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Finished, 120000);
        QVERIFY(session.lastFrame().runs[0].finished);
    }

    // Whoever a state change wakes finds the frame that shows it: a view or
    // a test waiting for "finished" reads the final figures, not the last
    // frame sent while running.
    void aSettledStateArrivesAfterItsFrame()
    {
        std::vector<std::pair<SimState, SimState>> seen;  // announced, and shown by the last frame then
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        connect(&session, &SimSession::stateChanged, &session,
                [&](SimState s) { seen.emplace_back(s, session.lastFrame().state); });
        session.load(setup_of("teaching-8", "pipe:loops=300", {"baseline"}));
        QVERIFY(wait_count(frames, 1));
        session.step();
        session.setSpeed(0);
        session.run();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Finished, 120000);
        QCOMPARE(seen.front().first, SimState::Paused);
        QCOMPARE(seen.back().first, SimState::Finished);
        for (const auto& [announced, shown] : seen)
            if (announced != SimState::Running)
                QCOMPARE(shown, announced);
        QVERIFY(session.lastFrame().runs[0].finished);
    }

    // A throttled run advances no faster than the clock allows.
    void speedLimitsSimulatedTime()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        session.load(setup_of("teaching-8", "pipe:loops=100000", {"baseline"}));
        QVERIFY(wait_count(frames, 1));
        session.setSpeed(1e-4);  // 100 us per second
        QElapsedTimer wall;
        wall.start();
        session.run();
        QTest::qWait(300);
        session.pause();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Paused, 10000);
        QTest::qWait(50);
        const double allowed_us = 100.0 * static_cast<double>(wall.elapsed()) / 1000.0;
        QVERIFY2(session.lastFrame().runs[0].now.to_us() <= allowed_us + 1.0,
                 qPrintable(QString::number(session.lastFrame().runs[0].now.to_us())));
    }

    void nextDivergenceStopsWhereLockstepRunSays()
    {
        const SessionSetup setup = setup_of("ampere-altra-80", "pipe:loops=2000", {"baseline", "sync-waker-v3"});
        LockstepRun reference(setup.machine, setup.base, setup.policies);
        const std::optional<Divergence> expected = reference.next_divergence(100000);
        QVERIFY(expected.has_value());

        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        QSignalSpy steps(&session, &SimSession::stepped);
        session.load(setup);
        QVERIFY(wait_count(frames, 1));
        session.nextDivergence();
        QVERIFY(wait_count(steps, 1));
        const auto got = steps.at(0).at(0).value<StepRecords>();
        QVERIFY(got.diverged);
        QVERIFY(got.from_divergence_search);
        QCOMPARE(got.records[0]->seq, expected->wakeup);
        QCOMPARE(got.records[0]->chosen, expected->records[0].chosen);
        QCOMPARE(got.records[1]->chosen, expected->records[1].chosen);
        QTRY_VERIFY_WITH_TIMEOUT(session.lastFrame().first_divergence.has_value(), 10000);
        QCOMPARE(session.lastFrame().first_divergence->wakeup, expected->wakeup);
    }

    void breakpointPausesAtTheMatchingWakeup()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        QSignalSpy steps(&session, &SimSession::stepped);
        QSignalSpy stopped(&session, &SimSession::stopped);
        session.load(setup_of("ampere-altra-80", "pipe:loops=2000", {"baseline"}));
        QVERIFY(wait_count(frames, 1));
        session.setBreakpoints({{Breakpoint::Kind::Branch, "select_idle_sibling", "prev idle"}}, false);
        session.setSpeed(0);
        session.run();
        QVERIFY(wait_count(steps, 1));
        const auto got = steps.at(0).at(0).value<StepRecords>();
        QVERIFY(got.hits[0]);
        bool has_step = false;
        for (const DecisionStep& s : got.records[0]->steps)
            has_step = has_step || (s.function == "select_idle_sibling" && s.branch == "prev idle");
        QVERIFY(has_step);
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Paused, 10000);
        QVERIFY(wait_count(stopped, 1));
        QVERIFY2(stopped.at(0).at(0).toString().contains(QStringLiteral("prev idle")),
                 qPrintable(stopped.at(0).at(0).toString()));
    }

    void breakOnFirstDivergence()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        QSignalSpy steps(&session, &SimSession::stepped);
        session.load(setup_of("ampere-altra-80", "pipe:loops=2000", {"baseline", "sync-waker-v3"}));
        QVERIFY(wait_count(frames, 1));
        session.setBreakpoints({}, true);
        session.setSpeed(0);
        session.run();
        QVERIFY(wait_count(steps, 1));
        const auto got = steps.at(0).at(0).value<StepRecords>();
        QVERIFY(got.diverged);
        QCOMPARE(got.records[0]->seq, std::uint64_t{3});
    }

    // Destroying the session while it runs flat out returns promptly and
    // leaves no thread behind.
    // Frames the old run had queued before a restart are not shown: after
    // it, every frame starts again from time 0.
    void aRestartShowsNoFrameOfTheOldRun()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        session.load(setup_of("teaching-8", "pipe:loops=1000000", {"baseline"}));
        QVERIFY(wait_count(frames, 1));
        session.setSpeed(0);
        session.run();
        QTRY_VERIFY_WITH_TIMEOUT(session.lastFrame().runs[0].now > Time::ms(5), 60000);
        // The worker keeps running meanwhile: its next frame is queued
        // before the restart is.
        QThread::msleep(100);
        frames.clear();
        session.restart();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Paused, 10000);
        QTest::qWait(100);
        QVERIFY(frames.count() >= 1);
        for (const QList<QVariant>& args : frames)
            QCOMPARE(args.at(0).value<SimFrame>().runs[0].now, Time());
    }

    void stopsCleanlyMidRun()
    {
        auto* session = new SimSession;
        QSignalSpy frames(session, &SimSession::frameReady);
        session->load(setup_of("synthetic:node=2,llc=8,core=8,smt=2", "hackbench:groups=8,loops=100000",
                               {"baseline", "sync-waker-v3"}));
        QVERIFY(wait_count(frames, 1));
        session->setSpeed(0);
        session->run();
        QTRY_COMPARE_WITH_TIMEOUT(session->state(), SimState::Running, 10000);
        QThread* thread = session->findChild<QThread*>();
        QVERIFY(thread && thread->isRunning());
        delete session;  // must not hang
        // Commands after shutdown are ignored rather than crashing.
        SimSession other;
        other.shutdown();
        other.step();
        other.run();
    }

    // A hook that throws mid-run stops that run: Failed, with the engine's
    // message, and nothing more from it; the thread lives on and a restart
    // runs the same setup from time 0.
    void aThrowingHookFailsTheRunNotTheThread()
    {
        load_plugin(WB_PLUGIN_MISBEHAVING);
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        QSignalSpy failed(&session, &SimSession::runFailed);
        session.load(setup_of("teaching-8", "pipe:loops=1000", {"baseline", "throws-in-hook"}));
        QVERIFY(wait_count(frames, 1));
        session.setSpeed(0);
        session.run();
        QVERIFY(wait_count(failed, 1));
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.startsWith(QStringLiteral("policy 'throws-in-hook', hook before_select_idle_sibling, "
                                                   "wakeup of task ")),
                 qPrintable(message));
        QVERIFY2(message.endsWith(QStringLiteral(": threw: my idea is not finished")), qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Failed, 10000);
        frames.clear();
        session.run();
        session.step();
        QTest::qWait(150);
        QCOMPARE(frames.count(), 0);
        QCOMPARE(failed.count(), 1);
        session.restart();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Paused, 10000);
        QCOMPARE(session.lastFrame().runs[1].now, Time());
        session.run();  // and breaks again, at the same wakeup
        QVERIFY(wait_count(failed, 2));
        QCOMPARE(failed.at(1).at(0).toString(), message);
    }

    // dropRuns() returns with the runs gone (Empty, no more frames) and the
    // setup kept: a restart builds them again.
    void droppedRunsStopAndRestartFromTheSameSetup()
    {
        SimSession session;
        QSignalSpy frames(&session, &SimSession::frameReady);
        session.load(setup_of("teaching-8", "pipe:loops=1000000", {"baseline"}));
        QVERIFY(wait_count(frames, 1));
        session.setSpeed(0);
        session.run();
        QTRY_VERIFY_WITH_TIMEOUT(session.lastFrame().runs[0].now > Time::ms(1), 60000);
        session.dropRuns();
        QCOMPARE(session.state(), SimState::Empty);
        frames.clear();
        QTest::qWait(150);
        QCOMPARE(frames.count(), 0);
        session.run();  // nothing to run
        QTest::qWait(100);
        QCOMPARE(frames.count(), 0);
        session.restart();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Paused, 10000);
        QCOMPARE(session.lastFrame().runs[0].now, Time());
        session.run();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SimState::Running, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(session.lastFrame().runs[0].now > Time(), 10000);
    }
};

}  // namespace wb

QTEST_GUILESS_MAIN(wb::SimSessionTest)
#include "sim_session_test.moc"
