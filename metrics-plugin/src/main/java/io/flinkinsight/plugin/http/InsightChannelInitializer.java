package io.flinkinsight.plugin.http;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.compression.StandardCompressionOptions;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds each connection's pipeline: connection limits (in all and per client address),
 * request-head deadline, idle timeout, HTTP codec with size limits, gzip, large bodies written in
 * slices, handler.
 */
final class InsightChannelInitializer extends ChannelInitializer<SocketChannel> {

    /**
     * Headroom over the longest accepted request target for the method and protocol on the request
     * line.
     */
    private static final int REQUEST_LINE_OVERHEAD = 64;

    /**
     * gzip level 1: scrapes are large and repetitive, and CPU in a Flink process matters more than
     * LAN bytes.
     */
    private static final int GZIP_LEVEL = 1;

    private static final int COMPRESSION_THRESHOLD_BYTES = 1024;

    private final HttpServerSettings settings;
    private final RequestHandler handler;
    private final RefusalReason.Counts refusals;
    private final Executor workers;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> openPerAddress =
            new ConcurrentHashMap<>();

    InsightChannelInitializer(
            HttpServerSettings settings,
            RequestHandler handler,
            RefusalReason.Counts refusals,
            Executor workers) {
        this.settings = settings;
        this.handler = handler;
        this.refusals = refusals;
        this.workers = workers;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        if (open.incrementAndGet() > settings.maxConnections()) {
            open.decrementAndGet();
            refusals.count(RefusalReason.TOO_MANY_CONNECTIONS);
            ch.close();
            return;
        }
        ch.closeFuture().addListener(f -> open.decrementAndGet());
        InetAddress address = ClientAddress.of(ch.remoteAddress());
        if (address != null) {
            int fromAddress = openPerAddress.merge(address, 1, Integer::sum);
            ch.closeFuture()
                    .addListener(
                            f ->
                                    openPerAddress.computeIfPresent(
                                            address, (a, n) -> n > 1 ? n - 1 : null));
            if (fromAddress > settings.maxConnectionsPerAddress()) {
                refusals.count(RefusalReason.TOO_MANY_CONNECTIONS);
                ch.close();
                return;
            }
        }
        configure(ch.pipeline(), settings, handler, refusals, workers);
    }

    /** The handlers of one connection; also used on Netty's EmbeddedChannel in tests. */
    static void configure(
            ChannelPipeline p,
            HttpServerSettings settings,
            RequestHandler handler,
            RefusalReason.Counts refusals,
            Executor workers) {
        HttpDecoderConfig decoder =
                new HttpDecoderConfig()
                        .setMaxInitialLineLength(
                                HttpServerSettings.MAX_URI_LENGTH + REQUEST_LINE_OVERHEAD)
                        .setMaxHeaderSize(settings.maxRequestHeaderBytes())
                        .setMaxChunkSize(8192);
        if (settings.tls() != null) {
            p.addLast("tls", new SslHandler(settings.tls().serverEngine()));
        }
        p.addLast("head-deadline", new RequestHeadDeadline(settings.requestHeadTimeout()));
        p.addLast(
                "idle",
                new IdleStateHandler(
                        0, 0, settings.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
        p.addLast("codec", new HttpServerCodec(decoder));
        p.addLast(
                "compressor",
                new HttpContentCompressor(
                        COMPRESSION_THRESHOLD_BYTES,
                        StandardCompressionOptions.gzip(GZIP_LEVEL, 15, 8),
                        StandardCompressionOptions.deflate(GZIP_LEVEL, 15, 8)));
        p.addLast("chunked-writer", new ChunkedWriteHandler());
        p.addLast("handler", new InsightHttpHandler(handler, refusals, workers, settings.access()));
    }
}
