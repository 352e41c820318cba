package io.flinkinsight.it.ecosystem;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.List;

/**
 * YAML through the Jackson YAML reader (SnakeYAML underneath) that Flink itself shades into
 * flink-shaded-jackson, so no other YAML library is needed; documents come back as plain Jackson
 * trees.
 */
final class Yaml {

    private static final org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind
                    .ObjectMapper
            YAML =
                    new org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind
                            .ObjectMapper(
                            new org.apache.flink.shaded.jackson2.com.fasterxml.jackson.dataformat
                                    .yaml.YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private Yaml() {}

    /** Every document of a YAML stream ({@code ---}-separated), empty ones left out. */
    static List<JsonNode> documents(String text) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (var it =
                YAML.readerFor(
                                org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind
                                        .JsonNode.class)
                        .readValues(text)) {
            while (it.hasNext()) {
                Object doc = it.next();
                if (doc != null
                        && !(doc
                                instanceof
                                org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node
                                        .MissingNode)
                        && !doc.toString().equals("null")) {
                    out.add(JSON.readTree(toJson(doc)));
                }
            }
        }
        return out;
    }

    static JsonNode document(String text) throws Exception {
        List<JsonNode> docs = documents(text);
        if (docs.size() != 1) {
            throw new AssertionError("expected one YAML document, found " + docs.size());
        }
        return docs.get(0);
    }

    private static String toJson(Object shadedNode) throws Exception {
        return new org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper()
                .writeValueAsString(shadedNode);
    }
}
