package io.flinkinsight.benchmarks.scrape;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A minimal HTTP/1.1 client for one path on one keep-alive connection, like a Prometheus scraper:
 * it reads the whole body (Content-Length or chunked) into a reused buffer and counts its bytes, so
 * the client itself allocates almost nothing and the allocation figures belong to the server.
 */
final class KeepAliveHttpClient implements Closeable {

    private static final int TIMEOUT_MILLIS = 60_000;

    private final InetSocketAddress address;
    private final byte[] request;
    private final byte[] buffer = new byte[64 * 1024];
    private final StringBuilder line = new StringBuilder(128);
    private int position;
    private int limit;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    KeepAliveHttpClient(String host, int port, String path) {
        this.address = new InetSocketAddress(host, port);
        // Prometheus asks for OpenMetrics first; both reporters are compared on text 0.0.4, so ask
        // for that only.
        this.request =
                ("GET "
                                + path
                                + " HTTP/1.1\r\n"
                                + "Host: "
                                + host
                                + ":"
                                + port
                                + "\r\n"
                                + "Accept: text/plain; version=0.0.4\r\n"
                                + "Connection: keep-alive\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Sends one GET and reads the whole response body.
     *
     * @param bodySink receives the body, or null to only count it
     * @return the number of body bytes
     */
    long get(OutputStream bodySink) throws IOException {
        if (socket == null) {
            connect();
        }
        out.write(request);
        out.flush();

        String statusLine = readLine();
        if (!statusLine.startsWith("HTTP/1.1 200") && !statusLine.startsWith("HTTP/1.0 200")) {
            throw new IOException("unexpected status from " + address + ": " + statusLine);
        }
        long contentLength = -1;
        boolean chunked = false;
        boolean closeAfter = statusLine.startsWith("HTTP/1.0");
        for (String header = readLine(); !header.isEmpty(); header = readLine()) {
            int colon = header.indexOf(':');
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.contains("chunked");
                case "connection" -> closeAfter = value.contains("close");
                default -> {}
            }
        }

        long bodyBytes;
        if (chunked) {
            bodyBytes = readChunkedBody(bodySink);
        } else if (contentLength >= 0) {
            bodyBytes = readExactly(contentLength, bodySink);
        } else {
            throw new IOException("response has neither Content-Length nor chunked encoding");
        }
        if (closeAfter) {
            // The server will not keep the connection; a scraper would reconnect on the next
            // scrape.
            close();
        }
        return bodyBytes;
    }

    private long readChunkedBody(OutputStream bodySink) throws IOException {
        long total = 0;
        while (true) {
            String sizeLine = readLine();
            int extension = sizeLine.indexOf(';');
            long size =
                    Long.parseLong(
                            extension < 0
                                    ? sizeLine.trim()
                                    : sizeLine.substring(0, extension).trim(),
                            16);
            if (size == 0) {
                // Trailers, if any, end with an empty line.
                while (!readLine().isEmpty()) {
                    // skip
                }
                return total;
            }
            total += readExactly(size, bodySink);
            if (!readLine().isEmpty()) {
                throw new IOException("chunk not followed by CRLF");
            }
        }
    }

    private long readExactly(long length, OutputStream bodySink) throws IOException {
        long remaining = length;
        while (remaining > 0) {
            if (position == limit) {
                fill();
            }
            int n = (int) Math.min(remaining, limit - position);
            if (bodySink != null) {
                bodySink.write(buffer, position, n);
            }
            position += n;
            remaining -= n;
        }
        return length;
    }

    private String readLine() throws IOException {
        line.setLength(0);
        while (true) {
            if (position == limit) {
                fill();
            }
            char c = (char) (buffer[position++] & 0xff);
            if (c == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') {
                    line.setLength(end - 1);
                }
                return line.toString();
            }
            line.append(c);
        }
    }

    private void fill() throws IOException {
        int n = in.read(buffer);
        if (n < 0) {
            throw new IOException("connection closed by " + address + " mid-response");
        }
        position = 0;
        limit = n;
    }

    /**
     * The first GET of a server that may still be binding: retried on a new connection every 100 ms
     * for at most 15 s, {@code body} holding only the answer that came.
     */
    void firstGet(ByteArrayOutputStream body) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            try {
                body.reset();
                get(body);
                return;
            } catch (IOException e) {
                close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        socket.connect(address, TIMEOUT_MILLIS);
        in = socket.getInputStream();
        out = socket.getOutputStream();
        position = 0;
        limit = 0;
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }
}
