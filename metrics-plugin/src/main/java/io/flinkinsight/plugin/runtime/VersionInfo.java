package io.flinkinsight.plugin.runtime;

import java.io.InputStream;
import java.util.Properties;

/** The plugin's own version (from a resource filtered at build time) and the Flink version of the process. */
public final class VersionInfo {

    private static final String UNKNOWN = "unknown";

    private VersionInfo() {}

    public static String insightVersion() {
        try (InputStream in = VersionInfo.class.getResourceAsStream("/io/flinkinsight/plugin/version.properties")) {
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

    /**
     * Flink's version as the JobManager and TaskManager report it. Read reflectively from flink-runtime, which the
     * plugin must not require (a client process may not have it); falls back to flink-core's manifest.
     */
    public static String flinkVersion() {
        try {
            Class<?> env = Class.forName("org.apache.flink.runtime.util.EnvironmentInformation");
            Object v = env.getMethod("getVersion").invoke(null);
            if (v instanceof String s && !s.isEmpty() && !s.startsWith("<")) {
                return s;
            }
        } catch (Throwable ignored) {
            // not a Flink runtime process, or an unexpected Flink version: fall through
        }
        try {
            Package p = Class.forName("org.apache.flink.configuration.Configuration").getPackage();
            String v = p == null ? null : p.getImplementationVersion();
            return v == null ? UNKNOWN : v;
        } catch (Throwable ignored) {
            return UNKNOWN;
        }
    }
}
