package io.flinkinsight.plugin.http;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;

/**
 * Flink's REST TLS ({@code security.ssl.rest.*}) as the plugin uses it: the hub and the dashboard
 * proxy call Flink's REST API with it (presenting Flink's REST certificate when {@code
 * security.ssl.rest.authentication-enabled} asks for mutual authentication), and the plugin's port
 * can serve HTTPS with the same key. Read from the same keys, with the same fallbacks to {@code
 * security.ssl.*}, as Flink reads them; a store type option absent in a Flink version means the
 * JDK's default type (PKCS12, which reads JKS too). Server names are verified as by any HTTPS
 * client: the REST URL's host must be in Flink's REST certificate.
 *
 * @param client for calls to Flink's REST API (and to other processes' plugin ports)
 * @param server for the plugin's own port
 * @param mutual whether Flink asks its REST clients for a certificate, and the plugin's port does
 *     too
 */
public record RestTls(SSLContext client, SSLContext server, boolean mutual) {

    static final String ENABLED = "security.ssl.rest.enabled";
    static final String AUTHENTICATION = "security.ssl.rest.authentication-enabled";

    /**
     * Flink's REST TLS from its configuration (as {@code Configuration.toMap()} gives it), or null
     * when off.
     */
    public static RestTls from(Map<String, String> flink) {
        if (!flag(flink, ENABLED)) {
            return null;
        }
        boolean mutual = flag(flink, AUTHENTICATION);
        try {
            KeyManager[] keys = keyManagers(flink);
            TrustManager[] trust = trustManagers(flink);
            SSLContext client = SSLContext.getInstance("TLS");
            client.init(mutual ? keys : null, trust, null);
            SSLContext server = null;
            if (keys != null) {
                server = SSLContext.getInstance("TLS");
                server.init(keys, mutual ? trust : null, null);
            }
            return new RestTls(client, server, mutual);
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "Flink's REST TLS ("
                            + ENABLED
                            + ": true) could not be read from"
                            + " security.ssl.rest.keystore and security.ssl.rest.truststore: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Whether {@code flink} turns on Flink's REST TLS with mutual authentication (the stores
     * unread).
     */
    public static boolean mutualRequested(Map<String, String> flink) {
        return flag(flink, ENABLED) && flag(flink, AUTHENTICATION);
    }

    private static boolean flag(Map<String, String> flink, String key) {
        return Boolean.parseBoolean(flink.getOrDefault(key, "false").trim());
    }

    /** An engine for one connection to the plugin's port. */
    public SSLEngine serverEngine() {
        SSLEngine engine = server.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setNeedClientAuth(mutual);
        return engine;
    }

    private static KeyManager[] keyManagers(Map<String, String> flink)
            throws GeneralSecurityException, IOException {
        String path = option(flink, "keystore");
        if (path == null) {
            return null;
        }
        char[] password = password(flink, "keystore-password");
        KeyStore store = load(path, option(flink, "keystore-type"), password);
        char[] keyPassword = password(flink, "key-password");
        KeyManagerFactory factory =
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, keyPassword.length > 0 ? keyPassword : password);
        return factory.getKeyManagers();
    }

    /** Flink's truststore, or the JDK's trusted authorities when none is set. */
    private static TrustManager[] trustManagers(Map<String, String> flink)
            throws GeneralSecurityException, IOException {
        String path = option(flink, "truststore");
        TrustManagerFactory factory =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(
                path == null
                        ? null
                        : load(
                                path,
                                option(flink, "truststore-type"),
                                password(flink, "truststore-password")));
        return factory.getTrustManagers();
    }

    private static KeyStore load(String path, String type, char[] password)
            throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(type == null ? KeyStore.getDefaultType() : type);
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            store.load(in, password);
        }
        return store;
    }

    /** {@code security.ssl.rest.<name>}, else {@code security.ssl.<name>}, else null. */
    private static String option(Map<String, String> flink, String name) {
        String value = flink.get("security.ssl.rest." + name);
        if (value == null || value.isBlank()) {
            value = flink.get("security.ssl." + name);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static char[] password(Map<String, String> flink, String name) {
        String value = option(flink, name);
        return value == null ? new char[0] : value.toCharArray();
    }
}
