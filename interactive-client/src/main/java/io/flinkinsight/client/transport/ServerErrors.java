package io.flinkinsight.client.transport;

import org.apache.flink.util.ExceptionUtils;

import java.util.List;

/**
 * What a JobManager's error says. Its REST API sends the server's exception as text (a {@code
 * RestClientException} whose message holds the server-side stack trace), so what went wrong there
 * is read from the messages of a failure's causes, never from their classes.
 */
public final class ServerErrors {

    private ServerErrors() {}

    /**
     * Whether the message of {@code failure} or of one of its causes contains one of {@code texts}.
     */
    public static boolean mentionsAny(Throwable failure, List<String> texts) {
        for (String text : texts) {
            if (ExceptionUtils.findThrowableWithMessage(failure, text).isPresent()) {
                return true;
            }
        }
        return false;
    }
}
