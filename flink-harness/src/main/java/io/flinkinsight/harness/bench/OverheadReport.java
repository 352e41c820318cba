package io.flinkinsight.harness.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The overhead benchmark's result as Markdown: every run, the medians, their ratio against the
 * target.
 */
final class OverheadReport {

    static final double TARGET_RATIO = 0.99;

    private final List<BenchRun> runs;
    private final String machine;
    private final String setup;

    OverheadReport(List<BenchRun> runs, String machine, String setup) {
        this.runs = List.copyOf(runs);
        this.machine = machine;
        this.setup = setup;
    }

    double medianThroughput(boolean withPlugin) {
        return median(
                runs.stream()
                        .filter(r -> r.withPlugin() == withPlugin)
                        .mapToDouble(BenchRun::throughput)
                        .sorted()
                        .toArray());
    }

    /** Median throughput with the plugin divided by median throughput without it. */
    double ratio() {
        return medianThroughput(true) / medianThroughput(false);
    }

    /**
     * The median over rounds of (with / without) within the round: the two runs of a round are back
     * to back, so this pairs runs that saw similar machine load.
     */
    double medianPairedRatio() {
        return median(pairedRatios());
    }

    /**
     * Mean of the per-round ratios and its standard error: how precisely this run pins the ratio
     * down.
     */
    double[] meanPairedRatioAndError() {
        double[] ratios = pairedRatios();
        if (ratios.length < 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double mean = Arrays.stream(ratios).average().orElse(Double.NaN);
        double squares = Arrays.stream(ratios).map(r -> (r - mean) * (r - mean)).sum();
        return new double[] {
            mean, Math.sqrt(squares / (ratios.length - 1)) / Math.sqrt(ratios.length)
        };
    }

    /** (with / without) of each round, sorted. */
    private double[] pairedRatios() {
        Map<Integer, Double> with = new TreeMap<>();
        Map<Integer, Double> without = new TreeMap<>();
        for (BenchRun run : runs) {
            (run.withPlugin() ? with : without).put(run.round(), run.throughput());
        }
        return with.entrySet().stream()
                .filter(e -> without.containsKey(e.getKey()))
                .mapToDouble(e -> e.getValue() / without.get(e.getKey()))
                .sorted()
                .toArray();
    }

    /**
     * (max - min) / median of the runs without the plugin: how far apart identical runs land on
     * this machine.
     */
    double baselineSpread() {
        double[] values =
                runs.stream()
                        .filter(r -> !r.withPlugin())
                        .mapToDouble(BenchRun::throughput)
                        .sorted()
                        .toArray();
        return values.length == 0
                ? Double.NaN
                : (values[values.length - 1] - values[0]) / median(values);
    }

    private static double median(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("## Per-record overhead of the Insight plugin (CPU-bound chained-maps job)\n\n");
        md.append("Machine: ").append(machine).append("\n\n");
        md.append(setup).append("\n\n");
        md.append(
                "| round | condition | records | task time (s) | job time (s) | throughput (M records/s) | scrapes"
                        + " | load avg (1 min) |\n");
        md.append("|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (BenchRun run : runs) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %d | %s | %,d | %.2f | %.2f | %.3f | %s | %s |%n",
                            run.round(),
                            run.condition(),
                            run.records(),
                            run.taskMillis() / 1000.0,
                            run.jobMillis() / 1000.0,
                            run.throughput() / 1e6,
                            run.withPlugin()
                                    ? run.scrapes()
                                            + (run.scrapeFailures() > 0
                                                    ? " (" + run.scrapeFailures() + " failed)"
                                                    : "")
                                    : "-",
                            run.loadAverage() < 0
                                    ? "n/a"
                                    : String.format(Locale.ROOT, "%.2f", run.loadAverage())));
        }
        md.append('\n');
        md.append(
                String.format(
                        Locale.ROOT,
                        "| median | throughput (M records/s) |%n|---|---:|%n"
                                + "| without plugin | %.3f |%n| %s | %.3f |%n%n",
                        medianThroughput(false) / 1e6,
                        pluginCondition(),
                        medianThroughput(true) / 1e6));
        // The verdict takes the median of the per-round ratios: the runs are interleaved in pairs,
        // so each ratio
        // compares two runs that saw similar machine load; the ratio of medians mixes rounds and is
        // printed too.
        double[] mean = meanPairedRatioAndError();
        md.append(
                String.format(
                        Locale.ROOT,
                        "Median of per-round ratios (with / without, the two runs of each"
                                + " round side by side): **%.4f** (target >= %.2f: %s). Ratio of medians: %.4f. Mean of"
                                + " per-round ratios: %.4f ± %.4f (standard error).%n%n",
                        medianPairedRatio(),
                        TARGET_RATIO,
                        medianPairedRatio() >= TARGET_RATIO ? "met" : "NOT met",
                        ratio(),
                        mean[0],
                        mean[1]));
        md.append(
                String.format(
                        Locale.ROOT,
                        "Spread of the runs without the plugin ((max - min) / median): %.1f %%;"
                                + " a ratio closer to 1 than this spread is within the machine's noise.%n",
                        baselineSpread() * 100));
        return md.toString();
    }

    private String pluginCondition() {
        return runs.stream()
                .filter(BenchRun::withPlugin)
                .map(BenchRun::condition)
                .findFirst()
                .orElse(BenchRun.conditionName(true, true));
    }
}
