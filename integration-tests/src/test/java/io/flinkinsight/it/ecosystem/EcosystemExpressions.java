package io.flinkinsight.it.ecosystem;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every PromQL expression of the ecosystem files, and the metric names in each. Names are found by
 * a small lexer, enough for the PromQL written here: string literals, label matchers {@code {...}},
 * ranges {@code [...]} and the label lists of {@code by/without/on/ignoring/group_left/group_right
 * (...)} are removed first; of the identifiers left, those followed by {@code (} are functions or
 * aggregations, the PromQL keywords are dropped, and the rest are metric names.
 */
final class EcosystemExpressions {

    private static final Pattern STRING =
            Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER =
            Pattern.compile("(?<![\\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS =
            Set.of(
                    "and",
                    "or",
                    "unless",
                    "offset",
                    "bool",
                    "by",
                    "without",
                    "on",
                    "ignoring",
                    "group_left",
                    "group_right",
                    "inf",
                    "nan",
                    "Inf",
                    "NaN",
                    "atan2");
    private static final Pattern LABEL_VALUES =
            Pattern.compile("^\\s*label_values\\((.*),\\s*\\w+\\s*\\)\\s*$");

    private EcosystemExpressions() {}

    /** The alerting rules' expressions, keyed by alert name. */
    static Map<String, String> rules() throws Exception {
        JsonNode root =
                Yaml.document(
                        Files.readString(
                                Promtool.ecosystem()
                                        .resolve("prometheus/flink-insight-alerts.yml")));
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode group : root.path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                String name =
                        rule.has("alert")
                                ? rule.path("alert").asText()
                                : rule.path("record").asText();
                out.put("rule " + name, rule.path("expr").asText());
            }
        }
        return out;
    }

    static JsonNode dashboard() throws Exception {
        return new ObjectMapper().readTree(Files.readString(dashboardPath()));
    }

    static Path dashboardPath() {
        return Promtool.ecosystem().resolve("grafana/flink-insight.json");
    }

    /**
     * The dashboard's panel queries and its query variables' queries (label_values(...) reduced to
     * its selector).
     */
    static Map<String, String> dashboardExpressions() throws Exception {
        JsonNode dashboard = dashboard();
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode panel : allPanels(dashboard)) {
            for (JsonNode target : panel.path("targets")) {
                out.put(
                        "panel '"
                                + panel.path("title").asText()
                                + "' "
                                + target.path("refId").asText(),
                        target.path("expr").asText());
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if ("query".equals(variable.path("type").asText())) {
                JsonNode query = variable.path("query");
                String text = query.isObject() ? query.path("query").asText() : query.asText();
                Matcher m = LABEL_VALUES.matcher(text);
                out.put(
                        "variable $" + variable.path("name").asText(),
                        m.matches() ? m.group(1) : text);
            }
        }
        return out;
    }

    static List<JsonNode> allPanels(JsonNode dashboard) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            out.add(panel);
            panel.path("panels").forEach(out::add); // panels inside collapsed rows
        }
        return out;
    }

    /** The metric names an expression selects. */
    static Set<String> metricNames(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        s = MATCHERS.matcher(s).replaceAll("{}");
        s = RANGE.matcher(s).replaceAll("[]");
        s = LABEL_LIST.matcher(s).replaceAll(" ");
        Set<String> out = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String word = m.group();
            int next = m.end();
            while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
                next++;
            }
            boolean call = next < s.length() && s.charAt(next) == '(';
            if (!call && !KEYWORDS.contains(word)) {
                out.add(word);
            }
        }
        return out;
    }

    /**
     * An expression with Grafana's variables replaced by values Prometheus accepts, for promtool.
     */
    static String withoutGrafanaVariables(String expr) {
        return expr.replace("$__rate_interval", "1m")
                .replace("$__interval", "1m")
                .replace("$__range", "1h")
                .replaceAll("\\$\\{?\\w+}?", "x");
    }
}
