package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.TaskCheckpoint;
import io.flinkinsight.plugin.store.job.JobInitialization;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.job.LastCheckpoint;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes the panel's TypeScript interfaces of the API's answers
 * (web-extension/src/app/api/&lt;area&gt;/&lt;area&gt;.generated.ts) from the records the endpoints
 * return, as the plugin's Jackson mapper sees them: its property names and order, so a field the
 * server does not write cannot be declared. Records carry no nullness annotations, so a boxed
 * number or boolean is {@code | null} and any other field that may be null is listed in {@link
 * Area#nullable}.
 */
final class PanelModels {

    /** What the check and the regeneration say to run. */
    static final String REGENERATE =
            "mvn -pl metrics-plugin test -Dtest=PanelModelsTest -Dinsight.regenerate-panel-models=true";

    /**
     * One file of interfaces: the answers of one API area. {@code names} names the records in
     * TypeScript where the Java name says less (a nested {@code Response}); any other record
     * reached is emitted under its own name.
     */
    record Area(String name, Map<Class<?>, String> names, Map<Class<?>, Set<String>> nullable) {

        Path file(Path webExtension) {
            return webExtension
                    .resolve("src/app/api")
                    .resolve(name)
                    .resolve(name + ".generated.ts");
        }
    }

    static final List<Area> AREAS =
            List.of(
                    new Area(
                            "checkpoints",
                            names(CheckpointsEndpoint.Response.class, "CheckpointsResponse"),
                            Map.of(
                                    CheckpointsEndpoint.JobCheckpoints.class,
                                    Set.of("jobName"),
                                    CheckpointRecord.class,
                                    Set.of("jobName", "status", "type"),
                                    TaskCheckpoint.class,
                                    Set.of("vertexName"))),
                    new Area(
                            "jobs",
                            names(JobsEndpoint.Response.class, "JobsResponse"),
                            Map.of(
                                    JobRecord.class,
                                    Set.of("jobName", "status", "initialization", "lastCheckpoint"),
                                    JobInitialization.class,
                                    Set.of("status"),
                                    LastCheckpoint.class,
                                    Set.of("status", "type"))),
                    new Area(
                            "compare",
                            names(
                                    CompareEndpoint.Response.class,
                                    "CompareResponse",
                                    CompareEndpoint.Column.class,
                                    "CompareColumn",
                                    CompareEndpoint.ChartPoint.class,
                                    "CompareChartPoint",
                                    CompareEndpoint.Row.class,
                                    "CompareRow",
                                    CompareEndpoint.Cell.class,
                                    "CompareCell"),
                            Map.of(
                                    CompareEndpoint.Column.class,
                                    Set.of("jobName", "status", "settings"),
                                    JobSettings.class,
                                    Set.of(
                                            "stateBackend",
                                            "checkpointStorage",
                                            "incrementalSource",
                                            "changelogStorage",
                                            "checkpointMode"))),
                    new Area(
                            "overview",
                            // The overview itself is a map the endpoint builds key by key (its own
                            // figures are keys too).
                            names(FlinkCapabilities.Capability.class, "Capability"),
                            Map.of(FlinkCapabilities.Capability.class, Set.of("option"))),
                    new Area(
                            "series",
                            names(
                                    SeriesEndpoint.Response.class,
                                    "SeriesResponse",
                                    SeriesEndpoint.SeriesPoints.class,
                                    "SeriesPoints",
                                    SeriesNamesEndpoint.Response.class,
                                    "SeriesNamesResponse"),
                            Map.of()),
                    new Area(
                            "statements",
                            names(
                                    StatementsEndpoint.Response.class,
                                    "StatementsResponse",
                                    QueriesEndpoint.StatementQueries.class,
                                    "StatementQueries",
                                    QueriesEndpoint.LoggedQueries.class,
                                    "LoggedQueries"),
                            Map.of(
                                    QueriesEndpoint.StatementQueries.class,
                                    Set.of("statement"),
                                    QueryView.class,
                                    Set.of("jobId", "jobStatus"))));

    private static final ObjectMapper MAPPER = Json.mapper();

    private PanelModels() {}

    private static Map<Class<?>, String> names(Object... classAndName) {
        Map<Class<?>, String> names = new LinkedHashMap<>();
        for (int i = 0; i < classAndName.length; i += 2) {
            names.put((Class<?>) classAndName[i], (String) classAndName[i + 1]);
        }
        return names;
    }

    /** The names Jackson writes for {@code type}'s properties, in its order. */
    static List<String> propertyNames(Class<?> type) {
        return properties(type).stream().map(BeanPropertyDefinition::getName).toList();
    }

    private static List<BeanPropertyDefinition> properties(Class<?> type) {
        BeanDescription description =
                MAPPER.getSerializationConfig().introspect(MAPPER.constructType(type));
        return description.findProperties().stream()
                .filter(BeanPropertyDefinition::couldSerialize)
                .toList();
    }

    /**
     * The TypeScript of {@code area}: its named records first, each followed by the records it
     * reaches.
     */
    static String typescript(Area area) {
        checkNullableNamesExist(area);
        StringBuilder out =
                new StringBuilder()
                        .append(
                                "// Generated by PanelModelsTest (metrics-plugin) from the records the API serves: do not edit.\n")
                        .append("// Regenerate: ")
                        .append(REGENERATE)
                        .append('\n');
        Set<Class<?>> done = new LinkedHashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(area.names().keySet());
        while (!todo.isEmpty()) {
            Class<?> type = todo.removeFirst();
            if (done.add(type)) {
                List<Class<?>> reached = new ArrayList<>();
                out.append('\n').append(declaration(area, type, reached));
                todo.addAll(reached);
            }
        }
        return out.toString();
    }

    private static String declaration(Area area, Class<?> type, List<Class<?>> reached) {
        StringBuilder out =
                new StringBuilder()
                        .append("/** The JSON of `")
                        .append(type.getName().replace('$', '.'))
                        .append("`. */\n")
                        .append("export interface ")
                        .append(tsName(area, type))
                        .append(" {\n");
        Set<String> nullable = area.nullable().getOrDefault(type, Set.of());
        for (BeanPropertyDefinition p : properties(type)) {
            JavaType javaType = p.getAccessor().getType();
            boolean orNull =
                    !javaType.isPrimitive()
                            && (isBoxed(javaType.getRawClass())
                                    || nullable.contains(p.getInternalName()));
            // @JsonInclude(NON_NULL) and the like leave the key out instead of writing null
            JsonInclude.Include include =
                    MAPPER.getSerializationConfig()
                            .getDefaultPropertyInclusion()
                            .withOverrides(p.findInclusion())
                            .getValueInclusion();
            boolean optional =
                    include != JsonInclude.Include.ALWAYS
                            && include != JsonInclude.Include.USE_DEFAULTS;
            out.append("  readonly ")
                    .append(p.getName())
                    .append(optional ? "?: " : ": ")
                    .append(ts(area, javaType, reached))
                    .append(orNull && !optional ? " | null" : "")
                    .append(";\n");
        }
        return out.append("}\n").toString();
    }

    /** The TypeScript of a value of {@code type} (its nullness is the property's business). */
    private static String ts(Area area, JavaType type, List<Class<?>> reached) {
        Class<?> raw = type.getRawClass();
        if (raw == boolean.class || raw == Boolean.class) {
            return "boolean";
        }
        if (raw.isPrimitive() || Number.class.isAssignableFrom(raw)) {
            return "number";
        }
        if (raw == String.class || raw == Character.class) {
            return "string";
        }
        if (raw.isEnum()) {
            return Arrays.stream(raw.getEnumConstants())
                    .map(c -> "'" + ((Enum<?>) c).name() + "'")
                    .collect(Collectors.joining(" | "));
        }
        if (type.isArrayType() || type.isCollectionLikeType()) {
            String element = ts(area, type.getContentType(), reached);
            return "readonly " + (element.contains(" ") ? "(" + element + ")" : element) + "[]";
        }
        if (type.isMapLikeType() && type.getKeyType().getRawClass() == String.class) {
            return "Readonly<Record<string, " + ts(area, type.getContentType(), reached) + ">>";
        }
        if (raw.isRecord()) {
            reached.add(raw);
            return tsName(area, raw);
        }
        if (raw == Object.class) {
            return "unknown";
        }
        throw new IllegalArgumentException(
                "no TypeScript for " + type + " (give the panel a record, or map it here)");
    }

    private static String tsName(Area area, Class<?> type) {
        return area.names().getOrDefault(type, type.getSimpleName());
    }

    private static boolean isBoxed(Class<?> raw) {
        return raw == Boolean.class || Number.class.isAssignableFrom(raw);
    }

    /**
     * A nullable name that is no property (renamed or gone) would silently drop its {@code | null}.
     */
    private static void checkNullableNamesExist(Area area) {
        Map<Class<?>, Set<String>> unknown = new HashMap<>();
        area.nullable()
                .forEach(
                        (type, names) -> {
                            Set<String> missing = new LinkedHashSet<>(names);
                            properties(type).forEach(p -> missing.remove(p.getInternalName()));
                            if (!missing.isEmpty()) {
                                unknown.put(type, missing);
                            }
                        });
        if (!unknown.isEmpty()) {
            throw new IllegalStateException(
                    "PanelModels.AREAS names nullable fields that do not exist: " + unknown);
        }
    }
}
