package io.flinkinsight.common;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ClientFiguresTest {

    @Test
    void theDeclarationIsBesideTheClassThatOpensIt() throws IOException {
        try (InputStream in = ClientFigures.open()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .contains("\"scope\": \"insight_client\"");
        }
    }
}
