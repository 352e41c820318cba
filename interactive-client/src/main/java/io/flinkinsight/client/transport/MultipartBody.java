package io.flinkinsight.client.transport;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.runtime.rest.FileUpload;
import org.apache.flink.runtime.rest.FileUploadHandler;

import org.apache.flink.shaded.netty4.io.netty.buffer.ByteBuf;
import org.apache.flink.shaded.netty4.io.netty.buffer.ByteBufAllocator;
import org.apache.flink.shaded.netty4.io.netty.buffer.Unpooled;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.DefaultHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.FullHttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpContent;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpMethod;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpRequest;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.HttpVersion;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.multipart.HttpPostRequestEncoder;
import org.apache.flink.shaded.netty4.io.netty.handler.codec.http.multipart.MemoryAttribute;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

/**
 * A multipart request (the job submission: JSON body plus the job graph file, and jars or artifacts
 * if any) encoded in memory, the same parts Flink's {@code RestClient.createRequest} streams from
 * disk, so that it can ride a pooled keep-alive channel as one full request. Only for uploads up to
 * {@link #MAX_IN_MEMORY_BYTES}; larger ones take Flink's streaming path.
 */
record MultipartBody(byte[] content, String contentType) {

    /**
     * A SQL query's job graph is some kilobytes to a few megabytes; jars beyond this are streamed
     * by Flink.
     */
    @VisibleForTesting static final long MAX_IN_MEMORY_BYTES = 16L << 20;

    /** Whether the files are small enough to be encoded in memory (and are files). */
    static boolean fitsInMemory(Collection<FileUpload> uploads) {
        long total = 0;
        for (FileUpload upload : uploads) {
            Path path = upload.getFile();
            try {
                if (!Files.isRegularFile(path)) {
                    return false; // Flink's path gives the error a caller expects
                }
                total += Files.size(path);
            } catch (IOException | UncheckedIOException e) {
                return false;
            }
            if (total > MAX_IN_MEMORY_BYTES) {
                return false;
            }
        }
        return true;
    }

    /**
     * Encodes {@code json} as the attribute Flink's FileUploadHandler reads, and each file as
     * {@code file_<i>}.
     */
    static MultipartBody encode(byte[] json, Collection<FileUpload> uploads) throws IOException {
        HttpRequest head = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        HttpPostRequestEncoder encoder = null;
        try {
            // in memory: no temporary files of Netty's own
            encoder = new HttpPostRequestEncoder(new DefaultHttpDataFactory(false), head, true);
            MemoryAttribute request =
                    new MemoryAttribute(
                            FileUploadHandler.HTTP_ATTRIBUTE_REQUEST, StandardCharsets.UTF_8);
            request.setContent(Unpooled.wrappedBuffer(json));
            encoder.addBodyHttpData(request);
            int index = 0;
            for (FileUpload upload : uploads) {
                encoder.addBodyFileUpload(
                        "file_" + index++,
                        upload.getFile().toFile(),
                        upload.getContentType(),
                        false);
            }
            HttpRequest finalized = encoder.finalizeRequest();
            String contentType = finalized.headers().get(HttpHeaderNames.CONTENT_TYPE);
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (finalized instanceof FullHttpRequest full) {
                append(body, full.content());
                full.release();
            } else {
                while (!encoder.isEndOfInput()) {
                    HttpContent chunk = encoder.readChunk(ByteBufAllocator.DEFAULT);
                    try {
                        append(body, chunk.content());
                    } finally {
                        chunk.release();
                    }
                }
            }
            return new MultipartBody(body.toByteArray(), contentType);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) { // the encoder's checked ErrorDataEncoderException, and readChunk's
            // Exception
            throw new IOException("Could not encode the multipart request.", e);
        } finally {
            if (encoder != null) {
                encoder.cleanFiles();
            }
        }
    }

    private static void append(ByteArrayOutputStream out, ByteBuf buffer) throws IOException {
        buffer.getBytes(buffer.readerIndex(), out, buffer.readableBytes());
    }
}
