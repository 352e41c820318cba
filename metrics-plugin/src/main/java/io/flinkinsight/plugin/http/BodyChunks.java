package io.flinkinsight.plugin.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;

/**
 * A response body handed to Netty in slices, as the connection can take them ({@code
 * ChunkedWriteHandler} asks for the next one only while the channel is writable). Netty copies what
 * it writes into direct memory; written whole, a 100 MB scrape would take 100 MB of the direct
 * memory Flink sized for its network buffers, in slices it takes a few of them per connection.
 * Releases the body when closed, once: it may be a duplicate of a scrape body shared by other
 * writes, whose reference count it shares, so a second release would take another holder's
 * reference.
 */
final class BodyChunks implements ChunkedInput<ByteBuf> {

    static final int CHUNK_BYTES = 64 * 1024;

    private final ByteBuf body;
    private final long length;
    private boolean released;

    BodyChunks(ByteBuf body) {
        this.body = body;
        this.length = body.readableBytes();
    }

    @Override
    public boolean isEndOfInput() {
        return !body.isReadable();
    }

    @Override
    public void close() {
        if (!released) {
            released = true;
            body.release();
        }
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) {
        return body.isReadable()
                ? body.readRetainedSlice(Math.min(CHUNK_BYTES, body.readableBytes()))
                : null;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public long progress() {
        return length - body.readableBytes();
    }
}
