package io.flinkinsight.harness.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class OverheadReportTest {

    /**
     * A run of 1,000,000 records whose task took {@code millis}: throughput 1e9 / millis records/s.
     */
    private static BenchRun run(int round, boolean plugin, long millis) {
        return new BenchRun(
                round, plugin, plugin, 1_000_000, millis, millis + 100, plugin ? 10 : 0, 0, 1.5);
    }

    @Test
    void medianOfEvenCountIsTheMeanOfTheMiddleTwo() {
        OverheadReport report =
                new OverheadReport(
                        List.of(
                                run(1, false, 1000),
                                run(2, false, 500),
                                run(3, false, 250),
                                run(4, false, 2000)),
                        "m",
                        "s");

        // Throughputs 1M, 2M, 4M, 0.5M records/s: the middle two are 1M and 2M.
        assertThat(report.medianThroughput(false)).isCloseTo(1.5e6, within(1.0));
    }

    @Test
    void ratioIsMedianWithPluginOverMedianWithout() {
        OverheadReport report =
                new OverheadReport(
                        List.of(
                                run(1, true, 1010),
                                run(1, false, 1000),
                                run(2, false, 990),
                                run(2, true, 5000),
                                run(3, true, 1000),
                                run(3, false, 1000)),
                        "m",
                        "s");

        assertThat(report.ratio()).isCloseTo(1000.0 / 1010.0, within(1e-9));
    }

    @Test
    void markdownSaysWhetherTheTargetIsMet() {
        OverheadReport met =
                new OverheadReport(
                        List.of(run(1, true, 1000), run(1, false, 1005)), "nproc 2", "s");
        OverheadReport missed =
                new OverheadReport(
                        List.of(run(1, true, 1100), run(1, false, 1000)), "nproc 2", "s");

        assertThat(met.markdown()).contains("nproc 2").contains("(target >= 0.99: met)");
        assertThat(missed.markdown()).contains("(target >= 0.99: NOT met)");
    }

    @Test
    void theVerdictTakesTheMedianOfPerRoundRatiosNotTheRatioOfMedians() {
        // Per round: 1.0, 1.0 and 0.82 (median 1.0); the medians of each condition are 0.91M and
        // 1.0M (ratio 0.91).
        OverheadReport report =
                new OverheadReport(
                        List.of(
                                run(1, true, 1000),
                                run(1, false, 1000),
                                run(2, false, 3000),
                                run(2, true, 3000),
                                run(3, true, 1100),
                                run(3, false, 900)),
                        "m",
                        "s");

        assertThat(report.ratio()).isCloseTo(0.909, within(0.001));
        assertThat(report.markdown())
                .contains("**1.0000** (target >= 0.99: met)")
                .contains("Ratio of medians: 0.9091");
    }

    @Test
    void meanOfPerRoundRatiosComesWithItsStandardError() {
        // per-round ratios 0.98 and 1.02: mean 1.0, sample standard deviation 0.0283, standard
        // error 0.02
        OverheadReport report =
                new OverheadReport(
                        List.of(
                                run(1, true, 1000),
                                run(1, false, 980),
                                run(2, true, 1000),
                                run(2, false, 1020)),
                        "m",
                        "s");

        double[] mean = report.meanPairedRatioAndError();
        assertThat(mean[0]).isCloseTo(1.0, within(1e-9));
        assertThat(mean[1]).isCloseTo(0.02, within(1e-9));
    }

    @Test
    void everyRunIsATableRow() {
        OverheadReport report =
                new OverheadReport(List.of(run(1, true, 1000), run(1, false, 1000)), "m", "s");

        assertThat(report.markdown())
                .contains(
                        "| 1 | with plugin + 1 Hz scrape | 1,000,000 | 1.00 | 1.10 | 1.000 | 10 | 1.50 |")
                .contains("| 1 | without plugin | 1,000,000 | 1.00 | 1.10 | 1.000 | - | 1.50 |");
    }

    @Test
    void pairedRatioComparesRunsOfTheSameRound() {
        // Round 1 ran on a loaded machine (both slow), round 2 on a quiet one (both fast): each
        // pair is 0.98.
        OverheadReport report =
                new OverheadReport(
                        List.of(
                                run(1, true, 2000),
                                run(1, false, 1960),
                                run(2, true, 1000),
                                run(2, false, 980)),
                        "m",
                        "s");

        assertThat(report.medianPairedRatio()).isCloseTo(0.98, within(1e-9));
    }

    @Test
    void baselineSpreadIsRangeOverMedianOfRunsWithoutPlugin() {
        // Without the plugin: 1.0M, 1.25M and 0.8M records/s; median 1.0M, range 0.45M.
        OverheadReport report =
                new OverheadReport(
                        List.of(
                                run(1, false, 1000),
                                run(2, false, 800),
                                run(3, false, 1250),
                                run(1, true, 500)),
                        "m",
                        "s");

        assertThat(report.baselineSpread()).isCloseTo(0.45, within(1e-9));
    }
}
