package io.flinkinsight.harness;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * TLS with mutual authentication for Flink's REST endpoints ({@code security.ssl.rest.*}), set up
 * as Flink's docs describe it: one key pair in a PKCS12 keystore, made with the JDK's own {@code
 * keytool}, and a truststore holding its certificate; every side (JobManager, SQL Gateway, the
 * harness as a client) uses the same keystore. The certificate's subject alternative names are
 * {@code dns:localhost,ip:127.0.0.1}, so hostname verification passes for both. Every {@link
 * #create} makes a new key pair, with a random password.
 */
public final class RestTls {

    /** The alias of the key pair and of its certificate in the truststore. */
    public static final String ALIAS = "flink.rest";

    /** The certificate's subject alternative names. */
    public static final String SUBJECT_ALTERNATIVE_NAMES = "dns:localhost,ip:127.0.0.1";

    static final String KEYSTORE_FILE = "rest.keystore.p12";
    static final String TRUSTSTORE_FILE = "rest.truststore.p12";
    static final String CERTIFICATE_FILE = "rest.cer";
    private static final String PASSWORD_ENV = "FLINK_INSIGHT_REST_TLS_PASSWORD";
    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);

    private final Path keystore;
    private final Path truststore;
    private final String password;

    private RestTls(Path keystore, Path truststore, String password) {
        this.keystore = keystore;
        this.truststore = truststore;
        this.password = password;
    }

    /**
     * Makes a new key pair, its keystore and a truststore with its certificate in {@code dir}
     * (created if missing; files of an earlier call there are replaced).
     */
    public static RestTls create(Path dir) {
        Path folder = dir.toAbsolutePath();
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        Path keystore = folder.resolve(KEYSTORE_FILE);
        Path truststore = folder.resolve(TRUSTSTORE_FILE);
        Path certificate = folder.resolve(CERTIFICATE_FILE);
        try {
            Files.createDirectories(folder);
            Files.deleteIfExists(keystore);
            Files.deleteIfExists(truststore);
            Files.deleteIfExists(certificate);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare " + folder, e);
        }
        // PKCS12 has one password for the store and its keys, so -keypass is the store password
        keytool(
                folder,
                password,
                "-genkeypair",
                "-alias",
                ALIAS,
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "3650",
                "-dname",
                "CN=localhost, OU=Flink Insight harness",
                "-ext",
                "SAN=" + SUBJECT_ALTERNATIVE_NAMES,
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass:env",
                PASSWORD_ENV,
                "-keypass:env",
                PASSWORD_ENV);
        keytool(
                folder,
                password,
                "-exportcert",
                "-rfc",
                "-alias",
                ALIAS,
                "-keystore",
                keystore.toString(),
                "-storepass:env",
                PASSWORD_ENV,
                "-file",
                certificate.toString());
        keytool(
                folder,
                password,
                "-importcert",
                "-noprompt",
                "-alias",
                ALIAS,
                "-file",
                certificate.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                truststore.toString(),
                "-storepass:env",
                PASSWORD_ENV);
        return new RestTls(keystore, truststore, password);
    }

    /** The PKCS12 keystore with the key pair (alias {@value #ALIAS}). */
    public Path keystore() {
        return keystore;
    }

    /** The PKCS12 truststore with the key pair's certificate. */
    public Path truststore() {
        return truststore;
    }

    /** The password of both stores and of the key. */
    public String password() {
        return password;
    }

    /**
     * The Flink options for REST TLS with mutual authentication, for every process (and Flink's own
     * clients).
     */
    public Map<String, String> flinkOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("security.ssl.rest.enabled", "true");
        options.put("security.ssl.rest.authentication-enabled", "true");
        options.put("security.ssl.rest.keystore", keystore.toString());
        options.put("security.ssl.rest.keystore-password", password);
        options.put("security.ssl.rest.key-password", password);
        options.put("security.ssl.rest.truststore", truststore.toString());
        options.put("security.ssl.rest.truststore-password", password);
        return options;
    }

    /** A client context that presents the key pair's certificate and trusts only it. */
    public SSLContext clientContext() {
        try {
            KeyManagerFactory keys =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(keystore), password.toCharArray());
            TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(truststore));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "Cannot build an SSL context from " + keystore + " and " + truststore, e);
        }
    }

    /**
     * A client context that trusts the certificate but presents none, e.g. to show that the server
     * insists on one.
     */
    public SSLContext trustOnlyContext() {
        try {
            TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(truststore));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot build an SSL context from " + truststore, e);
        }
    }

    /** The store at {@code path}, PKCS12, opened with {@link #password()}. */
    public KeyStore load(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + path, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot open " + path, e);
        }
    }

    @Override
    public String toString() {
        return "RestTls[" + keystore + "]";
    }

    /**
     * Runs keytool with the password in its environment (not on its command line); fails on exit
     * code or timeout.
     */
    private static void keytool(Path dir, String password, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Path out = dir.resolve("keytool.out");
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile());
        builder.environment().put(PASSWORD_ENV, password);
        try {
            Process process = builder.start();
            if (!process.waitFor(KEYTOOL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "keytool " + args[0] + " did not finish in " + KEYTOOL_TIMEOUT);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "keytool "
                                + args[0]
                                + " exited with "
                                + process.exitValue()
                                + ": "
                                + Files.readString(out, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running keytool " + args[0], e);
        }
    }
}
