package io.flinkinsight.plugin.http;

/**
 * A client error in a request's parameters; its message is sent to the client in the JSON error
 * body.
 */
public final class BadRequestException extends Exception {

    public BadRequestException(String message) {
        super(message, null, false, false);
    }
}
