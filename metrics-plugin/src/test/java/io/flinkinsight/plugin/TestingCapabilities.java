package io.flinkinsight.plugin;

/**
 * What Flink 2.2+ gives (everything the plugin reads) and what 1.20 gives, for tests that pick a
 * version's paths.
 */
public final class TestingCapabilities {

    public static final FlinkCapabilities FLINK_2_2 =
            new FlinkCapabilities("2.2.0", true, true, true, true, true);
    public static final FlinkCapabilities FLINK_1_20 =
            new FlinkCapabilities("1.20.3", true, false, false, false, false);

    private TestingCapabilities() {}
}
