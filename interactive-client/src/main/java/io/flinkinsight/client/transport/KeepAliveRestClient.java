package io.flinkinsight.client.transport;

import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.flink.FlinkApi;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.io.network.netty.OutboundChannelHandlerFactory;
import org.apache.flink.runtime.rest.FileUpload;
import org.apache.flink.runtime.rest.HttpMethodWrapper;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.runtime.rest.RestClientConfiguration;
import org.apache.flink.runtime.rest.messages.MessageHeaders;
import org.apache.flink.runtime.rest.messages.MessageParameters;
import org.apache.flink.runtime.rest.messages.RequestBody;
import org.apache.flink.runtime.rest.messages.ResponseBody;
import org.apache.flink.runtime.rest.util.RestConstants;
import org.apache.flink.runtime.rest.versioning.RestAPIVersion;
import org.apache.flink.util.NetUtils;
import org.apache.flink.util.Preconditions;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;
import org.apache.flink.util.concurrent.FutureUtils;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JavaType;
import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpMethod;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Flink {@link RestClient} whose requests ride pooled keep-alive channels (see {@link
 * KeepAliveChannelPools}) instead of one new connection each, the multipart job submission included
 * (encoded in memory); only uploads above {@link MultipartBody#MAX_IN_MEMORY_BYTES} (large jars) go
 * through a Flink RestClient of their own. URLs, headers, JSON and errors are those of RestClient
 * 2.2, so callers cannot tell the difference. {@link #closeAsync} returns at once and closes this
 * client's channels, never the shared event loop.
 *
 * <p>It is built with the one RestClient constructor that every Flink line has, {@code
 * (Configuration, Executor)}, so the class links unchanged from 1.20 to 2.3; the event loop that
 * constructor makes is never started (no request goes through RestClient's own code) and is closed
 * with this client.
 */
final class KeepAliveRestClient extends RestClient {

    private static final Logger LOG = LoggerFactory.getLogger(KeepAliveRestClient.class);

    /**
     * Threads that parse responses and run callers' callbacks, as RestClusterClient's IO pool does
     * for RestClient.
     */
    private static final int RESPONSE_THREADS = 4;

    private final Configuration configuration;
    private final ThreadPoolExecutor responseExecutor;
    private final KeepAliveChannelPools pools;
    private final TransportListener listener;
    private final String urlPrefix;
    @Nullable private final String sslHost;
    private final int sslPort;

    /** Builds Flink's own RestClient for what must go through Flink's code (large uploads). */
    private final FlinkApi flink;

    private KeepAliveRestClient(
            Configuration configuration,
            RestClientConfiguration restConfiguration,
            ThreadPoolExecutor responseExecutor,
            @Nullable String sslHost,
            int sslPort,
            EventLoopGroup sharedGroup,
            ChannelPoolSettings settings,
            TransportListener listener,
            FlinkApi flink)
            throws org.apache.flink.util.ConfigurationException {
        super(configuration, responseExecutor);
        this.configuration = configuration;
        this.flink = flink;
        this.sslHost = sslHost;
        this.sslPort = sslPort;
        this.responseExecutor = responseExecutor;
        this.listener = listener;
        this.urlPrefix = configuration.get(RestOptions.URL_PREFIX);
        this.pools =
                new KeepAliveChannelPools(
                        sharedGroup,
                        configuration,
                        restConfiguration,
                        outboundHandlerFactories(),
                        sslHost,
                        sslPort,
                        settings,
                        listener);
    }

    /**
     * A client on {@code sharedGroup}. {@code sslHost}/{@code sslPort} play the part of
     * RestClient's host and port: with SSL, the peer that host name verification expects
     * (RestClusterClient passes the JobManager URL's).
     */
    static KeepAliveRestClient create(
            Configuration configuration,
            @Nullable String sslHost,
            int sslPort,
            EventLoopGroup sharedGroup,
            ChannelPoolSettings settings,
            TransportListener listener,
            FlinkApi flink)
            throws org.apache.flink.util.ConfigurationException {
        RestClientConfiguration restConfiguration =
                RestClientConfiguration.fromConfiguration(configuration);
        ThreadPoolExecutor responseExecutor =
                new ThreadPoolExecutor(
                        RESPONSE_THREADS,
                        RESPONSE_THREADS,
                        60,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        new ExecutorThreadFactory("flink-insight-rest-client-io"));
        responseExecutor.allowCoreThreadTimeOut(true);
        try {
            return new KeepAliveRestClient(
                    configuration,
                    restConfiguration,
                    responseExecutor,
                    sslHost,
                    sslPort,
                    sharedGroup,
                    settings,
                    new GuardedListener(listener),
                    flink);
        } catch (Throwable t) {
            // the executor of a client never made goes with it, whatever failed
            responseExecutor.shutdownNow();
            throw t;
        }
    }

    @Override
    public <
                    M extends MessageHeaders<R, P, U>,
                    U extends MessageParameters,
                    R extends RequestBody,
                    P extends ResponseBody>
            CompletableFuture<P> sendRequest(
                    String targetAddress,
                    int targetPort,
                    M messageHeaders,
                    U messageParameters,
                    R request,
                    Collection<FileUpload> fileUploads,
                    RestAPIVersion<? extends RestAPIVersion<?>> apiVersion)
                    throws IOException {
        if (pools.isClosed()) {
            return FutureUtils.completedExceptionally(
                    new IllegalStateException("RestClient is already closed"));
        }
        Preconditions.checkNotNull(fileUploads);
        if (!fileUploads.isEmpty() && !MultipartBody.fitsInMemory(fileUploads)) {
            // a large multipart upload (jars): Flink's own streaming code, on a client and
            // connection of its own
            return counted(
                    System.nanoTime(),
                    () -> {
                        listener.channelOpened();
                        return sendThroughFlink(
                                targetAddress,
                                targetPort,
                                messageHeaders,
                                messageParameters,
                                request,
                                fileUploads,
                                apiVersion);
                    });
        }
        Preconditions.checkNotNull(targetAddress);
        Preconditions.checkArgument(
                NetUtils.isValidHostPort(targetPort),
                "The target port " + targetPort + " is not in the range [0, 65535].");
        Preconditions.checkNotNull(messageHeaders);
        Preconditions.checkNotNull(request);
        Preconditions.checkNotNull(messageParameters);
        Preconditions.checkState(
                messageParameters.isResolved(), "Message parameters were not resolved.");
        if (!messageHeaders.getSupportedAPIVersions().contains(apiVersion)) {
            throw new IllegalArgumentException(
                    String.format(
                            "The requested version %s is not supported by the request (method=%s URL=%s)."
                                    + " Supported versions are: %s.",
                            apiVersion,
                            messageHeaders.getHttpMethod(),
                            messageHeaders.getTargetRestEndpointURL(),
                            messageHeaders.getSupportedAPIVersions().stream()
                                    .map(RestAPIVersion::getURLVersionPrefix)
                                    .collect(Collectors.joining(","))));
        }

        String targetUrl =
                MessageParameters.resolveUrl(
                        RestRequests.versionedUrl(
                                messageHeaders, apiVersion.getURLVersionPrefix(), urlPrefix),
                        messageParameters);
        LOG.debug(
                "Sending request of class {} to {}:{}{} on a kept-alive channel",
                request.getClass(),
                targetAddress,
                targetPort,
                targetUrl);
        byte[] json = RestResponses.serialize(request);
        // the job submission: JSON and job graph as one multipart body, on a pooled channel like
        // any request
        MultipartBody multipart =
                fileUploads.isEmpty() ? null : MultipartBody.encode(json, fileUploads);
        byte[] body = multipart == null ? json : multipart.content();
        String contentType =
                multipart == null ? RestConstants.REST_CONTENT_TYPE : multipart.contentType();
        HttpMethod method = messageHeaders.getHttpMethod().getNettyHttpMethod();
        String host = targetAddress + ':' + targetPort;
        JavaType responseType = RestResponses.responseType(messageHeaders);
        boolean idempotent = messageHeaders.getHttpMethod() == HttpMethodWrapper.GET;

        long startNanos = System.nanoTime();
        return counted(
                startNanos,
                () -> {
                    PooledExchange exchange =
                            new PooledExchange(
                                    pools.poolFor(targetAddress, targetPort),
                                    () ->
                                            RestRequests.newRequest(
                                                    host,
                                                    targetUrl,
                                                    method,
                                                    body,
                                                    contentType,
                                                    messageHeaders),
                                    idempotent,
                                    listener);
                    // parse and complete off the event loop, as RestClient does on its executor
                    return exchange.send()
                            .handleAsync(
                                    (raw, error) -> {
                                        if (error != null) {
                                            throw error instanceof CompletionException completion
                                                    ? completion
                                                    : new CompletionException(error);
                                        }
                                        try {
                                            return RestResponses.<P>parse(
                                                    raw.status(), raw.body(), responseType);
                                        } catch (Exception e) {
                                            throw new CompletionException(e);
                                        }
                                    },
                                    this::runOffEventLoop);
                });
    }

    /**
     * Sends one request through a Flink RestClient made for it (SSL host checks as
     * RestClusterClient's own).
     */
    private <
                    M extends MessageHeaders<R, P, U>,
                    U extends MessageParameters,
                    R extends RequestBody,
                    P extends ResponseBody>
            CompletableFuture<P> sendThroughFlink(
                    String targetAddress,
                    int targetPort,
                    M messageHeaders,
                    U messageParameters,
                    R request,
                    Collection<FileUpload> fileUploads,
                    RestAPIVersion<? extends RestAPIVersion<?>> apiVersion)
                    throws IOException {
        RestClient flinkClient;
        try {
            flinkClient = flink.newRestClient(configuration, responseExecutor, sslHost, sslPort);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Cannot create Flink's RestClient for a large upload.", e);
        }
        CompletableFuture<P> response;
        try {
            response =
                    flinkClient.sendRequest(
                            targetAddress,
                            targetPort,
                            messageHeaders,
                            messageParameters,
                            request,
                            fileUploads,
                            apiVersion);
        } catch (IOException | RuntimeException | Error e) {
            flinkClient.closeAsync();
            throw e;
        }
        return response.whenComplete((ignored, failure) -> flinkClient.closeAsync());
    }

    private void runOffEventLoop(Runnable task) {
        try {
            responseExecutor.execute(task);
        } catch (RejectedExecutionException closed) {
            // after close: the last failures complete where they happen rather than get lost
            task.run();
        }
    }

    /**
     * Closes this client's channels at once, and the never-started event loop of RestClient; never
     * waits, never touches the shared event loop. (RestClient's {@code shutdown}, which
     * RestClusterClient calls, closes only that event loop, which takes no time.)
     */
    @Override
    public CompletableFuture<Void> closeAsync() {
        if (!pools.isClosed()) {
            LOG.debug("Closing the keep-alive REST channels.");
            pools.close();
            responseExecutor.shutdown();
            super.closeAsync();
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Currently open pooled channels (in use or idle), for tests and diagnostics. */
    @VisibleForTesting
    int openChannelCount() {
        return pools.openChannelCount();
    }

    private interface RequestStart<T> {
        CompletableFuture<T> start() throws IOException;
    }

    private <T> CompletableFuture<T> counted(long startNanos, RequestStart<T> start)
            throws IOException {
        listener.inFlightChanged(1);
        CompletableFuture<T> future;
        try {
            future = start.start();
        } catch (IOException | RuntimeException | Error e) {
            listener.inFlightChanged(-1);
            listener.requestFinished(System.nanoTime() - startNanos, false);
            throw e;
        }
        return future.whenComplete(
                (result, error) -> {
                    listener.inFlightChanged(-1);
                    listener.requestFinished(System.nanoTime() - startNanos, error == null);
                });
    }

    // RestClient loads these too, but keeps them private; ours need them for the pooled channels.
    private static List<OutboundChannelHandlerFactory> outboundHandlerFactories() {
        List<OutboundChannelHandlerFactory> factories = new ArrayList<>();
        for (OutboundChannelHandlerFactory factory :
                ServiceLoader.load(OutboundChannelHandlerFactory.class)) {
            if (factory != null) {
                factories.add(factory);
            }
        }
        factories.sort(Comparator.comparingInt(OutboundChannelHandlerFactory::priority).reversed());
        return factories;
    }
}
