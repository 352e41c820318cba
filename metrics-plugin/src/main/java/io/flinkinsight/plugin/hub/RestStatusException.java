package io.flinkinsight.plugin.hub;

import java.io.IOException;

/** Flink's REST API answered with a status other than 2xx. */
final class RestStatusException extends IOException {

    private final int status;

    RestStatusException(String pathAndQuery, int status) {
        super("GET " + pathAndQuery + " answered " + status);
        this.status = status;
    }

    int status() {
        return status;
    }
}
