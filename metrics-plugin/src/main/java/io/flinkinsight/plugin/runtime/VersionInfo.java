package io.flinkinsight.plugin.runtime;

import java.io.InputStream;
import java.util.Properties;

/**
 * The plugin's own version, from a resource filtered at build time (Flink's is in {@link
 * io.flinkinsight.plugin.FlinkCapabilities}).
 */
public final class VersionInfo {

    private static final String UNKNOWN = "unknown";

    private VersionInfo() {}

    public static String insightVersion() {
        try (InputStream in =
                VersionInfo.class.getResourceAsStream(
                        "/io/flinkinsight/plugin/version.properties")) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", UNKNOWN);
        } catch (Exception e) {
            return UNKNOWN;
        }
    }
}
