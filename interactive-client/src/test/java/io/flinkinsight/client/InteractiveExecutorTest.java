package io.flinkinsight.client;

import org.apache.flink.runtime.rest.util.RestClientException;

import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpResponseStatus;

import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class InteractiveExecutorTest {

    @Test
    void aRetriedSubmissionThatTheNewLeaderAlreadyHasWasAccepted() {
        // as the JobManager's REST API answers it: the server's exception in the error text
        RestClientException application =
                new RestClientException(
                        "[Internal server error., <Exception on server side:\n"
                                + "org.apache.flink.runtime.client.DuplicateApplicationSubmissionException: Application has already"
                                + " been submitted.\n\tat org.apache.flink.runtime.dispatcher.Dispatcher.lambda$submitApplication$9"
                                + "(Dispatcher.java:952)\n\nEnd of exception on server side>]",
                        HttpResponseStatus.INTERNAL_SERVER_ERROR);
        RestClientException job =
                new RestClientException(
                        "[Internal server error., <Exception on server side:\n"
                                + "org.apache.flink.runtime.client.DuplicateJobSubmissionException: Job has already been submitted.\n"
                                + "End of exception on server side>]",
                        HttpResponseStatus.INTERNAL_SERVER_ERROR);

        assertThat(
                        InteractiveExecutor.acceptedByAnEarlierAttempt(
                                new CompletionException(application)))
                .isTrue();
        assertThat(InteractiveExecutor.acceptedByAnEarlierAttempt(new CompletionException(job)))
                .isTrue();
    }

    @Test
    void anyOtherSubmissionFailureFailsTheQuery() {
        assertThat(
                        InteractiveExecutor.acceptedByAnEarlierAttempt(
                                new ConnectException("Connection refused")))
                .isFalse();
        assertThat(
                        InteractiveExecutor.acceptedByAnEarlierAttempt(
                                new RestClientException(
                                        "[Internal server error., <Exception on server side:\norg.apache.flink.runtime.client"
                                                + ".JobSubmissionException: Failed to submit job.>]",
                                        HttpResponseStatus.INTERNAL_SERVER_ERROR)))
                .isFalse();
    }
}
