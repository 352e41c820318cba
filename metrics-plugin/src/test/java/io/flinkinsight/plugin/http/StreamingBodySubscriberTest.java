package io.flinkinsight.plugin.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamingBodySubscriberTest {

    private static final int BATCH = 16 * 1024;

    /**
     * A source that answers each request at once, on the requesting thread, as the JDK's client
     * may.
     */
    private static final class EagerSource implements Flow.Subscription {
        private final StreamingBodySubscriber body;
        private final long length;
        private long delivered;
        private long requests;
        private boolean cancelled;

        EagerSource(StreamingBodySubscriber body, long length) {
            this.body = body;
            this.length = length;
        }

        @Override
        public void request(long n) {
            requests += n;
            if (delivered >= length) {
                return;
            }
            int size = (int) Math.min(BATCH, length - delivered);
            ByteBuffer batch = ByteBuffer.allocate(size);
            for (int i = 0; i < size; i++) {
                batch.put((byte) (delivered + i));
            }
            batch.flip();
            delivered += size;
            body.onNext(List.of(batch.asReadOnlyBuffer()));
            if (delivered >= length) {
                body.onComplete();
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    @Test
    void anUnreadBodyStopsAskingForMoreOnceTheReadAheadIsHeld() {
        StreamingBodySubscriber body = new StreamingBodySubscriber(-1);
        EagerSource source = new EagerSource(body, 100L * 1024 * 1024);
        body.onSubscribe(source);

        assertThat(source.delivered)
                .as("delivered to a body nobody reads")
                .isLessThanOrEqualTo(StreamingBodySubscriber.READ_AHEAD_BYTES + BATCH);
        assertThat(body.peakHeldBytes())
                .isLessThanOrEqualTo(StreamingBodySubscriber.READ_AHEAD_BYTES + BATCH);
    }

    @Test
    void aBodyReadToTheEndComesWholeInOrderAndHoldsNoMoreThanTheReadAhead() throws Exception {
        long length = 10L * 1024 * 1024 + 123;
        StreamingBodySubscriber body = new StreamingBodySubscriber(length);
        AtomicBoolean woken = new AtomicBoolean();
        body.onReadable(() -> woken.set(true));
        EagerSource source = new EagerSource(body, length);
        body.onSubscribe(source);

        long read = 0;
        long wrong = 0;
        while (!body.isEndOfInput()) {
            ByteBuf chunk = body.readChunk(ByteBufAllocator.DEFAULT);
            assertThat(chunk).as("an eager source always has the next piece ready").isNotNull();
            while (chunk.isReadable()) {
                if (chunk.readByte() != (byte) read) {
                    wrong++;
                }
                read++;
            }
            chunk.release();
        }

        assertThat(read).isEqualTo(length);
        assertThat(wrong).isZero();
        assertThat(body.progress()).isEqualTo(length);
        assertThat(body.length()).isEqualTo(length);
        assertThat(woken).isTrue();
        assertThat(body.peakHeldBytes())
                .isLessThanOrEqualTo(StreamingBodySubscriber.READ_AHEAD_BYTES + BATCH);
        assertThat(source.cancelled).isFalse();
    }

    @Test
    void closingBeforeTheEndCancelsTheSourceAndAFailureSurfacesToTheWriter() throws Exception {
        StreamingBodySubscriber closed = new StreamingBodySubscriber(-1);
        EagerSource source = new EagerSource(closed, 1024L * 1024);
        closed.onSubscribe(source);
        closed.close();
        closed.close();
        assertThat(source.cancelled).isTrue();
        assertThat(closed.isEndOfInput()).isTrue();

        StreamingBodySubscriber failed = new StreamingBodySubscriber(-1);
        failed.onSubscribe(new EagerSource(failed, 0));
        failed.onError(new IOException("connection reset"));
        assertThatThrownBy(() -> failed.readChunk(ByteBufAllocator.DEFAULT))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("after 0 bytes");
    }
}
