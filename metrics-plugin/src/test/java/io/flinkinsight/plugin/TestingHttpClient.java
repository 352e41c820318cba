package io.flinkinsight.plugin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A raw-socket HTTP client for tests on 127.0.0.1: sends exact bytes and reads until the server
 * closes.
 */
public final class TestingHttpClient {

    private static final int TIMEOUT_MILLIS = 5000;

    private TestingHttpClient() {}

    /**
     * Sends {@code raw} and returns everything the server writes before closing (or the read
     * timeout).
     */
    public static String exchange(int port, byte[] raw) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
            s.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = s.getOutputStream();
            out.write(raw);
            out.flush();
            return readAll(s.getInputStream());
        }
    }

    /** {@code GET path} with {@code Connection: close}; returns the raw response. */
    public static String get(int port, String path) throws IOException {
        return exchange(
                port,
                ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
    }

    public static int status(String rawResponse) {
        if (!rawResponse.startsWith("HTTP/1.1 ")) {
            throw new AssertionError("not an HTTP response: " + rawResponse);
        }
        return Integer.parseInt(rawResponse.substring(9, 12));
    }

    /** A port that was free a moment ago on 127.0.0.1. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                bytes.write(buf, 0, n);
            }
        } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
            // the server kept the connection open or reset it: return what arrived
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }
}
