package io.flinkinsight.plugin.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.stream.ChunkedInput;

/**
 * A response body that arrives while it is written (the dashboard proxy's answers from Flink).
 * Netty's {@code ChunkedWriteHandler} asks for the next piece only while the connection is
 * writable; the body asks its source for more only once what it holds was taken, so a slow reader
 * slows the source instead of filling memory. {@link #readChunk} returns null while nothing has
 * arrived yet; {@link #length()} is -1 when not known. {@link #close()} gives the source up
 * (whether or not all was read).
 */
public interface StreamedBody extends ChunkedInput<ByteBuf> {

    /**
     * {@code wake} is run (on any thread) whenever more can be read after {@link #readChunk}
     * returned null.
     */
    void onReadable(Runnable wake);

    /** Gives the source up; never throws, may be called more than once. */
    @Override
    void close();
}
