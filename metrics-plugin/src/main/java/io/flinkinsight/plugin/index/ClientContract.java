package io.flinkinsight.plugin.index;

import io.flinkinsight.common.ClientFigures;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The interactive client's figures as they are declared, once, in {@code client-figures.json}
 * ({@link ClientFigures}, shaded into this jar, so the plugin never needs the client's jar): the
 * group, name and kind of each figure, and the ratios computed from them. The plugin reads exactly
 * these series; their names follow Flink's Prometheus naming ({@link #seriesName}), e.g. {@code
 * flink_insight_client_pool_hits}.
 */
public final class ClientContract {

    static final String RESOURCE = ClientFigures.RESOURCE;

    private static final ClientContract LOADED = load();

    /** How a figure is registered in Flink's metric registry. */
    public enum Kind {
        COUNTER,
        GAUGE,
        HISTOGRAM
    }

    /**
     * A figure the API computes from others rather than summing it over client processes: the
     * summed {@code part} figures over the summed {@code whole} figures.
     */
    public record Ratio(List<Figure> part, List<Figure> whole) {}

    /** One figure: registered as {@code name} in group {@code group} of the client's root group. */
    public record Figure(String group, String name, Kind kind, String seriesName) {}

    private final String scope;
    private final List<Figure> figures;
    private final Map<Figure, Ratio> ratios;
    private final Set<String> seriesNames;

    private ClientContract(String scope, List<Figure> figures, Map<Figure, Ratio> ratios) {
        this.scope = scope;
        this.figures = List.copyOf(figures);
        this.ratios = Map.copyOf(ratios);
        this.seriesNames =
                figures.stream().map(Figure::seriesName).collect(Collectors.toUnmodifiableSet());
    }

    /** The contract this jar was built with. */
    public static ClientContract get() {
        return LOADED;
    }

    /** The client's root group, {@code insight_client}. */
    public String scope() {
        return scope;
    }

    /** Every figure in declaration order (groups pool, channels, collect, queries). */
    public List<Figure> figures() {
        return figures;
    }

    /** The groups in declaration order. */
    public List<String> groups() {
        Set<String> groups = new LinkedHashSet<>();
        figures.forEach(f -> groups.add(f.group()));
        return List.copyOf(groups);
    }

    /**
     * The ratio the API computes for {@code figure}, or null when it is summed (counters, gauges)
     * or maxed.
     */
    public Ratio ratio(Figure figure) {
        return ratios.get(figure);
    }

    /**
     * Whether {@code seriesName} is one of the contract's figures (a histogram's {@code _count} is
     * not).
     */
    public boolean isFigure(String seriesName) {
        return seriesNames.contains(seriesName);
    }

    /**
     * The name Flink's Prometheus reporter (and this plugin) gives a figure: {@code flink_} + the
     * logical scope {@code <scope>_<group>} + {@code _} + the name, each part filtered as Flink
     * filters it.
     */
    public static String seriesName(String scope, String group, String name) {
        String logicalScope =
                PrometheusNaming.replaceInvalidChars(scope)
                        + PrometheusNaming.SCOPE_SEPARATOR
                        + PrometheusNaming.replaceInvalidChars(group);
        return PrometheusNaming.familyName(logicalScope, name);
    }

    static ClientContract load() {
        try (InputStream in = ClientFigures.open()) {
            return parse(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    static ClientContract parse(JsonNode root) {
        String scope = root.path("scope").asText();
        Map<String, Figure> byId = new LinkedHashMap<>();
        for (JsonNode f : root.path("figures")) {
            String group = f.path("group").asText();
            String name = f.path("name").asText();
            Kind kind = Kind.valueOf(f.path("kind").asText().toUpperCase(Locale.ROOT));
            byId.put(
                    group + "." + name,
                    new Figure(group, name, kind, seriesName(scope, group, name)));
        }
        Map<Figure, Ratio> ratios = new LinkedHashMap<>();
        for (JsonNode f : root.path("figures")) {
            JsonNode ratio = f.get("ratio");
            if (ratio != null) {
                Figure figure = byId.get(f.path("group").asText() + "." + f.path("name").asText());
                ratios.put(
                        figure,
                        new Ratio(
                                resolve(byId, ratio.path("part")),
                                resolve(byId, ratio.path("whole"))));
            }
        }
        return new ClientContract(scope, new ArrayList<>(byId.values()), ratios);
    }

    private static List<Figure> resolve(Map<String, Figure> byId, JsonNode ids) {
        List<Figure> out = new ArrayList<>();
        for (JsonNode id : ids) {
            Figure f = byId.get(id.asText());
            if (f == null) {
                throw new IllegalStateException(
                        RESOURCE + ": a ratio names " + id + ", which is no figure");
            }
            out.add(f);
        }
        return out;
    }
}
