package io.flinkinsight.plugin.serve;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.HttpReply;
import io.flinkinsight.plugin.http.Json;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.http.RefusalReason;
import io.flinkinsight.plugin.http.RequestFailureLog;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * The JSON endpoints' answers within {@code http.max-answer-bytes}: each serialised straight into
 * heap, stopping at the budget (413 naming the parameters that narrow it), and handed out only
 * while the answers on their way to readers hold less than {@link AnswerBudget#HELD_ANSWERS}
 * budgets (503 otherwise).
 */
final class JsonAnswers {

    private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");

    private final AnswerBudget answers;
    private final RequestFailureLog failures;

    JsonAnswers(long maxAnswerBytes, RequestFailureLog failures) {
        this.answers = new AnswerBudget(maxAnswerBytes);
        this.failures = failures;
    }

    HttpReply answer(String path, JsonEndpoint endpoint, QueryParameters query) {
        ByteBuf buf = null;
        try {
            Object value = endpoint.handle(query);
            buf = Unpooled.buffer(4096, (int) answers.maxAnswerBytes());
            try (OutputStream out = answers.bounded(new ByteBufOutputStream(buf))) {
                Json.write(value, out);
            }
            int size = buf.readableBytes();
            if (!answers.hold(size)) {
                buf.release();
                return HttpReply.error(
                        HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "too many large answers are being written; try again",
                        Map.of("Retry-After", "1"));
            }
            return new HttpReply(
                    HttpResponseStatus.OK,
                    HttpReply.JSON,
                    buf,
                    NO_STORE,
                    () -> answers.release(size));
        } catch (BadRequestException e) {
            return HttpReply.error(HttpResponseStatus.BAD_REQUEST, e.getMessage());
        } catch (IOException | RuntimeException e) {
            if (buf != null) {
                buf.release();
            }
            if (isTooLarge(e)) {
                return tooLarge(path, endpoint);
            }
            failures.failed(path, e);
            return HttpReply.error(
                    HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error in " + path);
        }
    }

    private static boolean isTooLarge(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof AnswerBudget.TooLargeException) {
                return true;
            }
        }
        return false;
    }

    private HttpReply tooLarge(String path, JsonEndpoint endpoint) {
        List<String> narrowers = endpoint.narrowedBy();
        String message =
                "the answer of "
                        + path
                        + " is larger than metrics.reporter.insight.http.max-answer-bytes ("
                        + answers.maxAnswerBytes()
                        + " bytes); "
                        + (narrowers.isEmpty()
                                ? "raise that option"
                                : "narrow it with "
                                        + String.join(", ", narrowers)
                                        + ", or raise that option");
        byte[] body =
                Json.error(
                        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code(),
                        message,
                        Map.of("narrowBy", narrowers));
        return HttpReply.error(
                RefusalReason.ANSWER_TOO_LARGE,
                HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                body,
                NO_STORE);
    }
}
