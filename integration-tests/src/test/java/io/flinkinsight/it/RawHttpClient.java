package io.flinkinsight.it;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A kept-alive HTTP/1.1 client over one raw socket that sends the request line exactly as given:
 * every HTTP library normalises or re-encodes the target ({@code %2d} to {@code -}, {@code /./}
 * away, a backslash refused), and those spellings are what a path check must be tested with. No
 * request body; one request at a time.
 */
final class RawHttpClient implements AutoCloseable {

    static final int TIMEOUT_MILLIS = 10_000;
    private static final int MAX_LINE = 16 * 1024;

    private final String host;
    private final int port;
    private final InetAddress from;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private int connections;

    /**
     * One answer.
     *
     * @param headers by lower-case name, repeated headers in order
     */
    record Response(int status, Map<String, List<String>> headers, byte[] body) {

        /** The first value of a header, or null. */
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    RawHttpClient(String host, int port) {
        this(host, port, null);
    }

    /**
     * A client whose connections leave from {@code from}: one of this machine's own non-loopback
     * addresses makes it a non-loopback peer of a server bound to loopback, with no packet leaving
     * the machine.
     */
    RawHttpClient(String host, int port, InetAddress from) {
        this.host = host;
        this.port = port;
        this.from = from;
    }

    /**
     * How many TCP connections were opened so far (1 when the server kept the connection alive
     * throughout).
     */
    int connections() {
        return connections;
    }

    /**
     * Sends {@code method target HTTP/1.1} with a Host header and returns the answer. When a
     * kept-alive connection turns out closed by the server before any answer byte, the request is
     * sent once more on a new connection: the server closed it between requests (idle timeout, or
     * after an answer it sent with {@code Connection: close}).
     */
    Response send(String method, String target) throws IOException {
        return send(method, target, "Host: " + host + ":" + port + "\r\n");
    }

    /**
     * Like {@link #send(String, String)}, with {@code headerLines} (each ending in CRLF) as the
     * only headers.
     */
    Response send(String method, String target, String headerLines) throws IOException {
        byte[] request =
                (method + " " + target + " HTTP/1.1\r\n" + headerLines + "\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1);
        boolean reused = socket != null;
        try {
            return exchange(method, request);
        } catch (EOFException | SocketException e) {
            close();
            if (!reused) {
                throw e;
            }
        } catch (IOException e) {
            close(); // A late answer must not be read as the next request's.
            throw e;
        }
        try {
            return exchange(method, request);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private Response exchange(String method, byte[] request) throws IOException {
        if (socket == null) {
            connect();
        }
        out.write(request);
        out.flush();
        while (true) {
            String statusLine = readLine();
            while (statusLine.isEmpty()) {
                statusLine = readLine(); // Tolerated before a status line (RFC 9112 2.2).
            }
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2
                    || !parts[0].startsWith("HTTP/1.")
                    || !parts[1].matches("\\d{3}")) {
                close();
                throw new IOException("not an HTTP status line: " + statusLine);
            }
            int status = Integer.parseInt(parts[1]);
            Map<String, List<String>> headers = readHeaders();
            if (status < 200) {
                continue; // Interim (1xx): the final answer follows.
            }
            byte[] body = readBody(method, status, headers);
            if (closes(headers)) {
                close();
            }
            return new Response(status, headers, body);
        }
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        if (from != null) {
            s.bind(new InetSocketAddress(from, 0));
        }
        s.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
        s.setSoTimeout(TIMEOUT_MILLIS);
        s.setTcpNoDelay(true);
        socket = s;
        in = new BufferedInputStream(s.getInputStream());
        out = s.getOutputStream();
        connections++;
    }

    private Map<String, List<String>> readHeaders() throws IOException {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                headers.computeIfAbsent(name, k -> new ArrayList<>())
                        .add(line.substring(colon + 1).trim());
            }
        }
        return headers;
    }

    private byte[] readBody(String method, int status, Map<String, List<String>> headers)
            throws IOException {
        if (method.equals("HEAD") || status == 204 || status == 304) {
            return new byte[0];
        }
        String encoding = first(headers, "transfer-encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return readChunked();
        }
        String length = first(headers, "content-length");
        if (length != null) {
            return in.readNBytes(Integer.parseInt(length.trim()));
        }
        // Neither: the body runs until the server closes (RFC 9112 6.3).
        byte[] body = in.readAllBytes();
        close();
        return body;
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine();
            int semicolon = sizeLine.indexOf(';');
            int size =
                    Integer.parseInt(
                            (semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(),
                            16);
            if (size == 0) {
                while (!readLine().isEmpty()) {
                    // Trailer fields: not needed.
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine(); // CRLF after the chunk
        }
    }

    /** One line without its CRLF (or LF); EOFException when the connection ends first. */
    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b == -1) {
                throw new EOFException("connection closed by the server after: " + line);
            }
            if (b == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r'
                        ? line.substring(0, end - 1)
                        : line.toString();
            }
            if (line.length() >= MAX_LINE) {
                throw new IOException("line longer than " + MAX_LINE + " bytes");
            }
            line.append((char) b);
        }
    }

    private static boolean closes(Map<String, List<String>> headers) {
        String connection = first(headers, "connection");
        return connection != null && connection.toLowerCase(Locale.ROOT).contains("close");
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing is best effort.
            }
            socket = null;
            in = null;
            out = null;
        }
    }
}
