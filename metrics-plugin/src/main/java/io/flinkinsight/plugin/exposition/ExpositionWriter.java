package io.flinkinsight.plugin.exposition;

import io.flinkinsight.plugin.index.JobSeriesRule;
import io.flinkinsight.plugin.index.MetricFamily;
import io.flinkinsight.plugin.index.MetricKind;
import io.flinkinsight.plugin.index.MetricReading;
import io.flinkinsight.plugin.index.RegisteredMetric;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Writes the index as Prometheus text 0.0.4 or OpenMetrics 1.0: families sorted by name, HELP and
 * TYPE once, samples contiguous. A pure function of the families and the metric values read while
 * writing.
 *
 * <p>Differences from Flink's PrometheusReporter, none of which renames a series: counters are
 * typed {@code counter} (Flink says gauge); label sets carry no trailing comma. Histograms are
 * summaries of quantiles and {@code _count} only, as in Flink's reporter: Flink's histograms keep a
 * window of recent values and no running sum, and a {@code _sum} made up from the window (mean x
 * count) would go down, which Prometheus reads as a counter reset. Every value is read by {@link
 * MetricReading}: a metric that throws is skipped and counted in {@code
 * flink_insight_scrape_errors_total} instead of failing the scrape. The series of a job registered
 * in this process for less than {@code scrape.job-series.min-age} are left out ({@link
 * JobSeriesRule}) and counted in {@code flink_insight_scrape_job_series_withheld}.
 */
public final class ExpositionWriter {

    private static final Logger LOG = LoggerFactory.getLogger(ExpositionWriter.class);

    /** The quantiles Flink's PrometheusReporter writes for a histogram. */
    private static final double[] QUANTILES = {0.5, 0.75, 0.95, 0.98, 0.99, 0.999};

    /** The quantiles of Flink's PrometheusReporter, a copy. */
    public static double[] quantiles() {
        return QUANTILES.clone();
    }

    /**
     * The overview's series count of {@code families}, the plugin's own figures left out: one per
     * member, and for a histogram its quantiles and two more (the scrape writes quantiles and
     * {@code _count}; the figure has always counted one more, kept so that the overview answers as
     * before).
     */
    public static long seriesCount(MetricFamily[] families) {
        long series = 0;
        for (MetricFamily family : families) {
            int perMember = family.kind() == MetricKind.HISTOGRAM ? QUANTILES.length + 2 : 1;
            series += (long) perMember * family.members().length;
        }
        return series;
    }

    private static final byte[][] QUANTILE_LABELS = new byte[QUANTILES.length][];
    private static final byte[] HELP = ascii("# HELP ");
    private static final byte[] TYPE = ascii("# TYPE ");
    private static final byte[] COUNT = ascii("_count");
    private static final byte[] EOF = ascii("# EOF\n");
    private static final byte[][] TYPE_NAMES_TEXT = new byte[MetricKind.values().length][];
    private static final byte[][] TYPE_NAMES_OPENMETRICS = new byte[MetricKind.values().length][];

    static {
        for (int i = 0; i < QUANTILES.length; i++) {
            // Double.toString, as Flink does: 0.5, 0.75, ... 0.999.
            QUANTILE_LABELS[i] = ascii("quantile=\"" + QUANTILES[i] + "\"");
        }
        for (MetricKind kind : MetricKind.values()) {
            TYPE_NAMES_TEXT[kind.ordinal()] = ascii(" " + kind.prometheusType() + "\n");
            // OpenMetrics requires counter samples to end in _total. Prometheus asks for
            // OpenMetrics first, so typing
            // Flink's counters as counters there would rename every one of them and break existing
            // dashboards;
            // "unknown" keeps the names Flink users query today.
            String om = kind == MetricKind.COUNTER ? "unknown" : kind.prometheusType();
            TYPE_NAMES_OPENMETRICS[kind.ordinal()] = ascii(" " + om + "\n");
        }
    }

    private static final String SCRAPE_ERRORS = "flink_insight_scrape_errors_total";
    private static final String JOB_SERIES_WITHHELD = "flink_insight_scrape_job_series_withheld";

    private final LongAdder scrapeErrors;
    private final Supplier<List<OwnFigure>> ownFigures;
    private final JobSeriesRule jobSeries;

    /** A writer whose only own figure is the scrape-error count, showing every series. */
    public ExpositionWriter(LongAdder scrapeErrors) {
        this(scrapeErrors, List::of);
    }

    /** A writer showing every series ({@link JobSeriesRule#SHOW_ALL}). */
    public ExpositionWriter(LongAdder scrapeErrors, Supplier<List<OwnFigure>> ownFigures) {
        this(scrapeErrors, ownFigures, JobSeriesRule.SHOW_ALL);
    }

    /**
     * @param scrapeErrors process-wide count of values that could not be read, exposed in every
     *     scrape
     * @param ownFigures the plugin's other own figures, read at each scrape
     * @param jobSeries which jobs' series are written: the rule the index was built with
     */
    public ExpositionWriter(
            LongAdder scrapeErrors, Supplier<List<OwnFigure>> ownFigures, JobSeriesRule jobSeries) {
        this.scrapeErrors = scrapeErrors;
        this.ownFigures = ownFigures;
        this.jobSeries = jobSeries;
    }

    /**
     * Writes every family, then the plugin's own figures, and drains the buffer; returns the
     * samples written.
     */
    public int write(MetricFamily[] families, ExpositionFormat format, ExpositionBuffer out) {
        boolean om = format == ExpositionFormat.OPENMETRICS;
        Render render = new Render(MetricReading.ofNumbers(QUANTILES), jobSeries);
        int samples = 0;
        for (MetricFamily family : families) {
            samples += writeFamily(family, om, out, render);
        }
        samples += writeOwnFigures(om, out, render);
        if (om) {
            out.write(EOF);
        }
        out.drain();
        return samples;
    }

    private int writeFamily(MetricFamily family, boolean om, ExpositionBuffer out, Render render) {
        MetricReading reading = render.reading;
        int samples = 0;
        boolean headerWritten = false;
        for (RegisteredMetric m : family.members()) {
            if (render.gated && !JobSeriesRule.shows(m, render.shownUpTo)) {
                render.withheld += family.kind() == MetricKind.HISTOGRAM ? QUANTILES.length + 1 : 1;
                continue; // a job too young: no value read, nothing written
            }
            // Read first, write after: a metric that throws leaves nothing half-written.
            if (!reading.read(m)) {
                scrapeErrors.increment(); // one metric failing must not fail the scrape
                continue;
            }
            if (!headerWritten) {
                writeHeader(family, om, out);
                headerWritten = true;
            }
            if (family.kind() == MetricKind.HISTOGRAM) {
                samples += writeSummary(family, m, reading, out);
            } else {
                writeSeries(family.nameBytes(), null, m, out);
                if (reading.isIntegral()) {
                    out.writeLong(reading.longValue());
                } else {
                    out.writeDouble(reading.doubleValue());
                }
                out.write((byte) '\n');
                samples++;
            }
        }
        return samples;
    }

    private static int writeSummary(
            MetricFamily family, RegisteredMetric m, MetricReading reading, ExpositionBuffer out) {
        for (int i = 0; i < QUANTILES.length; i++) {
            writeSeriesWithExtraLabel(family.nameBytes(), m, QUANTILE_LABELS[i], out);
            out.writeDouble(reading.quantile(i));
            out.write((byte) '\n');
        }
        writeSeries(family.nameBytes(), COUNT, m, out);
        out.writeLong(reading.count());
        out.write((byte) '\n');
        return QUANTILES.length + 1;
    }

    private static void writeHeader(MetricFamily family, boolean om, ExpositionBuffer out) {
        out.write(HELP);
        out.write(family.nameBytes());
        out.write((byte) ' ');
        out.write(family.helpBytes(om));
        out.write((byte) '\n');
        out.write(TYPE);
        out.write(family.nameBytes());
        out.write((om ? TYPE_NAMES_OPENMETRICS : TYPE_NAMES_TEXT)[family.kind().ordinal()]);
    }

    /** Writes {@code name[suffix]{labels} }. */
    private static void writeSeries(
            byte[] name, byte[] suffix, RegisteredMetric m, ExpositionBuffer out) {
        out.write(name);
        if (suffix != null) {
            out.write(suffix);
        }
        if (!m.labels().isEmpty()) {
            out.write((byte) '{');
            out.write(m.labels().renderedBytes());
            out.write((byte) '}');
        }
        out.write((byte) ' ');
    }

    private static void writeSeriesWithExtraLabel(
            byte[] name, RegisteredMetric m, byte[] extra, ExpositionBuffer out) {
        out.write(name);
        out.write((byte) '{');
        if (!m.labels().isEmpty()) {
            out.write(m.labels().renderedBytes());
            out.write((byte) ',');
        }
        out.write(extra);
        out.write((byte) '}');
        out.write((byte) ' ');
    }

    /**
     * The plugin's own figures, sorted by name: its scrape errors, then what {@code ownFigures}
     * gives.
     */
    private int writeOwnFigures(boolean om, ExpositionBuffer out, Render render) {
        List<OwnFigure> figures = new ArrayList<>();
        try {
            figures.addAll(ownFigures.get());
        } catch (RuntimeException e) {
            // The metrics Flink registered are still worth a scrape without the plugin's own
            // figures.
            scrapeErrors.increment();
            LOG.debug("Flink Insight's own figures failed in this scrape", e);
        }
        figures.add(
                new OwnFigure(
                        SCRAPE_ERRORS,
                        "Metric values Flink Insight could not read while scraping; those samples were skipped.",
                        true,
                        scrapeErrors.sum()));
        if (render.gated) {
            figures.add(
                    new OwnFigure(
                            JOB_SERIES_WITHHELD,
                            "Samples left out of this scrape because their job (the job_id label) was registered in"
                                    + " this process less than scrape.job-series.min-age ago; /api/v1/metrics"
                                    + " still lists them.",
                            false,
                            render.withheld));
        }
        figures.sort(
                Comparator.comparing(
                        OwnFigure::name)); // stable: the samples of one family keep their order
        String previous = null;
        for (OwnFigure f : figures) {
            if (!f.name().equals(previous)) {
                // OpenMetrics names a counter family without its _total suffix; text 0.0.4 names it
                // as its samples.
                String family =
                        f.counter() && om
                                ? f.name().substring(0, f.name().length() - "_total".length())
                                : f.name();
                out.write(HELP);
                out.writeAscii(family);
                out.write((byte) ' ');
                out.write(MetricFamily.escapeHelpBytes(f.help(), om));
                out.write((byte) '\n');
                out.write(TYPE);
                out.writeAscii(family);
                out.writeAscii(f.counter() ? " counter\n" : " gauge\n");
                previous = f.name();
            }
            out.writeAscii(f.name());
            if (!f.labels().isEmpty()) {
                out.write((byte) '{');
                boolean first = true;
                for (var label : new TreeMap<>(f.labels()).entrySet()) {
                    if (!first) {
                        out.write((byte) ',');
                    }
                    first = false;
                    out.writeAscii(label.getKey());
                    out.writeAscii("=\"");
                    out.writeAscii(label.getValue());
                    out.write((byte) '"');
                }
                out.write((byte) '}');
            }
            out.write((byte) ' ');
            out.writeDouble(f.value());
            out.write((byte) '\n');
        }
        return figures.size();
    }

    /**
     * What one render reads with and tallies: the reading, the job-series cut-off, what it left
     * out.
     */
    private static final class Render {
        final MetricReading reading;
        final boolean gated;
        final long shownUpTo;
        long withheld;

        Render(MetricReading reading, JobSeriesRule jobSeries) {
            this.reading = reading;
            this.gated = !jobSeries.showsAll();
            this.shownUpTo = gated ? jobSeries.shownUpTo() : 0;
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
