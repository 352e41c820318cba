package io.flinkinsight.plugin.http;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The port over HTTPS with Flink's REST key and trust stores, made by the JDK's keytool: a client
 * with the certificate is served, one without is refused under mutual authentication, and the hub's
 * kind of client (the JDK's HttpClient with {@link RestTls#client()}) verifies the server's name.
 */
class RestTlsITCase {

    private static final String PASSWORD = "insight-test";

    @TempDir static Path dir;

    private static Path keystore;
    private static Path otherKeystore;

    @BeforeAll
    static void keys() throws Exception {
        keystore = keytool("flink-rest", "rest.p12", "dns:localhost,ip:127.0.0.1");
        otherKeystore = keytool("stranger", "other.p12", "dns:localhost,ip:127.0.0.1");
    }

    /** A key pair in a PKCS12 store, its certificate naming {@code san}. */
    private static Path keytool(String alias, String file, String san) throws Exception {
        Path store = dir.resolve(file);
        Process p =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "keytool")
                                        .toString(),
                                "-genkeypair",
                                "-alias",
                                alias,
                                "-keyalg",
                                "RSA",
                                "-keysize",
                                "2048",
                                "-validity",
                                "2",
                                "-dname",
                                "CN=" + alias,
                                "-ext",
                                "SAN=" + san,
                                "-storetype",
                                "PKCS12",
                                "-keystore",
                                store.toString(),
                                "-storepass",
                                PASSWORD,
                                "-keypass",
                                PASSWORD)
                        .redirectErrorStream(true)
                        .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(p.exitValue())
                .as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
        return store;
    }

    /**
     * Flink's REST TLS options, the same store as key and trust store (as Flink's docs set up
     * mutual auth).
     */
    private static Map<String, String> flink(Path store, boolean mutual) {
        Map<String, String> conf = new HashMap<>();
        conf.put("security.ssl.rest.enabled", "true");
        conf.put("security.ssl.rest.authentication-enabled", String.valueOf(mutual));
        conf.put("security.ssl.rest.keystore", store.toString());
        conf.put("security.ssl.rest.keystore-password", PASSWORD);
        conf.put("security.ssl.rest.key-password", PASSWORD);
        conf.put("security.ssl.rest.truststore", store.toString());
        conf.put("security.ssl.rest.truststore-password", PASSWORD);
        return conf;
    }

    private static InsightHttpServer start(RestTls tls) {
        HttpServerSettings plain = TestingServerSettings.loopback(PortAccess.OPEN);
        HttpServerSettings settings =
                new HttpServerSettings(
                        plain.ports(),
                        plain.bindHost(),
                        plain.maxRequestHeaderBytes(),
                        plain.idleTimeout(),
                        plain.maxConnections(),
                        plain.threads(),
                        plain.maxConnectionsPerAddress(),
                        plain.requestHeadTimeout(),
                        plain.access(),
                        tls);
        InsightHttpServer server =
                TestingServers.server(
                        settings,
                        (format, out) -> {
                            out.writeAscii("up 1\n");
                            out.drain();
                        },
                        Map.of());
        assertThat(server.start()).isNotNull();
        return server;
    }

    private static HttpResponse<String> get(SSLContext context, String host, int port)
            throws Exception {
        HttpClient client =
                HttpClient.newBuilder()
                        .sslContext(context)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
        return client.send(
                HttpRequest.newBuilder(URI.create("https://" + host + ":" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void offUnlessFlinksRestTlsIsOn() {
        assertThat(RestTls.from(Map.of())).isNull();
        assertThat(RestTls.from(Map.of("security.ssl.rest.enabled", "false"))).isNull();
    }

    @Test
    void mutualAuthenticationServesOnlyAClientWithFlinksCertificate() throws Exception {
        RestTls tls = RestTls.from(flink(keystore, true));
        RestTls stranger = RestTls.from(flink(otherKeystore, true));
        InsightHttpServer server = start(tls);
        try {
            HttpResponse<String> answer = get(tls.client(), "localhost", server.port());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("up 1\n");
            assertThat(get(tls.client(), "127.0.0.1", server.port()).statusCode()).isEqualTo(200);

            assertThatThrownBy(() -> get(stranger.client(), "localhost", server.port()))
                    .as("a client whose certificate Flink's truststore does not hold")
                    .isInstanceOf(IOException.class);
            SSLContext noCertificate = RestTls.from(flink(keystore, false)).client();
            assertThatThrownBy(() -> get(noCertificate, "localhost", server.port()))
                    .as("a client without a certificate")
                    .isInstanceOf(IOException.class);
        } finally {
            server.close();
        }
    }

    @Test
    void theServersNameIsVerified() throws Exception {
        Path wrongName = keytool("elsewhere", "elsewhere.p12", "dns:flink.example.com");
        RestTls tls = RestTls.from(flink(wrongName, false));
        InsightHttpServer server = start(tls);
        try {
            assertThatThrownBy(() -> get(tls.client(), "localhost", server.port()))
                    .isInstanceOf(SSLHandshakeException.class);
        } finally {
            server.close();
        }
    }

    @Test
    void unreadableStoresNameTheKeys() {
        Map<String, String> conf = flink(dir.resolve("missing.p12"), true);
        assertThatThrownBy(() -> RestTls.from(conf))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("security.ssl.rest.keystore");
        Map<String, String> badPassword = flink(keystore, true);
        badPassword.put("security.ssl.rest.keystore-password", "wrong");
        assertThatThrownBy(() -> RestTls.from(badPassword))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("wrong");
    }
}
