// SPDX-License-Identifier: Apache-2.0
#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include "export/results_export.h"
#include "io/comparison_json.h"
#include "metrics/comparison.h"

namespace wb {
namespace {

Comparison comparison()
{
    Comparison c;
    c.cases = {"pipe"};
    c.workloads = {"pipe:loops=1000"};
    c.policies = {"baseline", "sync-waker-v3"};
    c.runs = 3;
    const std::vector<std::vector<double>> values{{5.0, 5.2, 5.4}, {3.0, 3.3, 3.6}};
    for (std::size_t p = 0; p < 2; ++p) {
        ComparisonCell cell;
        cell.policy = c.policies[p];
        cell.case_label = "pipe";
        cell.metric = "usecs/op";
        cell.unit = "us";
        cell.values = values[p];
        cell.placement[3] = 1.0;
        c.cells.push_back(cell);
    }
    finish_comparison(c);
    return c;
}

}  // namespace

class ResultsExportTest : public QObject {
    Q_OBJECT

private slots:
    void theSameTextAsWakesim()
    {
        const Comparison c = comparison();
        const QString table = text_table(c);
        QCOMPARE(table, QString::fromStdString(format_comparison(c)));
        QVERIFY(table.contains("sync-waker-v3"));
        QCOMPARE(results_csv(c), QString::fromStdString(comparison_to_csv(c)));
        QCOMPARE(results_json(c, "teaching-8"), QString::fromStdString(comparison_to_json(c, "teaching-8")));
        QVERIFY(results_json(c, "teaching-8").contains("\"teaching-8\""));
    }

    void writesTextFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QString path = dir.filePath("results.csv");
        const QString csv = results_csv(comparison());
        QVERIFY2(write_text_file(path, csv, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), csv);

        const QString bad = dir.filePath("missing/results.csv");
        QVERIFY(!write_text_file(bad, csv, &error));
        QVERIFY2(error.contains(bad), qPrintable(error));
    }
};

}  // namespace wb

QTEST_MAIN(wb::ResultsExportTest)
#include "results_export_test.moc"
