package io.flinkinsight.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What the build wrote into {@code harness.properties}: the primary Flink version and local jar
 * paths.
 */
final class HarnessProperties {

    private static final Properties RECORDED = load();

    private HarnessProperties() {}

    /** The recorded value; fails naming the key when the build did not fill it in. */
    static String get(String key) {
        String value = RECORDED.getProperty(key);
        if (value == null || value.isBlank() || value.startsWith("${")) {
            throw new IllegalStateException(
                    "harness.properties has no " + key + " (was the harness built by Maven?)");
        }
        return value.trim();
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = HarnessProperties.class.getResourceAsStream("harness.properties")) {
            if (in == null) {
                throw new IllegalStateException(
                        "harness.properties is missing from the harness's class path");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
