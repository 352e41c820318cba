package io.flinkinsight.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RestTlsTest {

    @TempDir Path dir;

    @Test
    void keystoreHoldsAKeyPairWhoseCertificateNamesLocalhostAndLoopbackAndTheTruststoreHoldsIt()
            throws Exception {
        RestTls tls = RestTls.create(dir.resolve("tls"));

        KeyStore keystore = tls.load(tls.keystore());
        assertThat(keystore.isKeyEntry(RestTls.ALIAS)).isTrue();
        assertThat(keystore.getKey(RestTls.ALIAS, tls.password().toCharArray())).isNotNull();
        X509Certificate certificate = (X509Certificate) keystore.getCertificate(RestTls.ALIAS);
        // type 2: dNSName, type 7: iPAddress
        assertThat(certificate.getSubjectAlternativeNames())
                .contains(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
        KeyStore truststore = tls.load(tls.truststore());
        assertThat(truststore.isCertificateEntry(RestTls.ALIAS)).isTrue();
        assertThat(truststore.getCertificate(RestTls.ALIAS)).isEqualTo(certificate);
        assertThat(tls.clientContext().getProtocol()).isEqualTo("TLS");
    }

    @Test
    void flinkOptionsTurnOnRestTlsWithMutualAuthenticationOnTheseStores() {
        RestTls tls = RestTls.create(dir);

        assertThat(tls.flinkOptions())
                .containsEntry("security.ssl.rest.enabled", "true")
                .containsEntry("security.ssl.rest.authentication-enabled", "true")
                .containsEntry("security.ssl.rest.keystore", tls.keystore().toString())
                .containsEntry("security.ssl.rest.truststore", tls.truststore().toString())
                .containsEntry("security.ssl.rest.keystore-password", tls.password())
                .containsEntry("security.ssl.rest.key-password", tls.password())
                .containsEntry("security.ssl.rest.truststore-password", tls.password());
        assertThat(tls.keystore()).isAbsolute();
    }

    @Test
    void everyCallMakesAnotherKeyPair() throws Exception {
        RestTls one = RestTls.create(dir.resolve("one"));
        RestTls two = RestTls.create(dir.resolve("two"));

        assertThat(two.password()).isNotEqualTo(one.password());
        assertThat(two.load(two.keystore()).getCertificate(RestTls.ALIAS).getPublicKey())
                .isNotEqualTo(
                        one.load(one.keystore()).getCertificate(RestTls.ALIAS).getPublicKey());
    }
}
