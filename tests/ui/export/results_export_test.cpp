// SPDX-License-Identifier: Apache-2.0
#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include "export/results_export.h"
#include "io/comparison_json.h"
#include "metrics/comparison.h"
#include "window_test_support.h"

namespace wb {

class ResultsExportTest : public QObject {
    Q_OBJECT

private slots:
    void theSameTextAsWakesim()
    {
        const Comparison c = test::two_policy_comparison();
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
        const QString csv = results_csv(test::two_policy_comparison());
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
