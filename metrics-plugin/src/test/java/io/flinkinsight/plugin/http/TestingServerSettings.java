package io.flinkinsight.plugin.http;

import java.time.Duration;

/** Server settings for tests: loopback, any free port, the options' defaults otherwise. */
public final class TestingServerSettings {

    private TestingServerSettings() {}

    public static HttpServerSettings loopback() {
        return loopback(PortAccess.OPEN);
    }

    public static HttpServerSettings loopback(PortAccess access) {
        return new HttpServerSettings(
                PortRange.parse("0"),
                "127.0.0.1",
                8192,
                Duration.ofSeconds(60),
                128,
                2,
                32,
                Duration.ofSeconds(10),
                access);
    }
}
