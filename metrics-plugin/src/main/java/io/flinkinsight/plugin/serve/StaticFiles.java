package io.flinkinsight.plugin.serve;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Files served from one classpath folder inside the plugin jar: the panel's ({@code insight-web/})
 * or the Insight tab's script for Flink's dashboard ({@code flink-tab/}). Files found are cached
 * (the set is fixed by the jar, so the cache is bounded); misses are not.
 */
public final class StaticFiles {

    static final String ROOT = "insight-web/";
    public static final String TAB_ROOT = "flink-tab/";
    static final String INDEX = "index.html";

    /**
     * Allows what an Angular build needs (its own scripts, inline component styles) and nothing
     * from elsewhere.
     */
    static final String CONTENT_SECURITY_POLICY =
            "default-src 'self'; script-src 'self'; style-src 'self'"
                    + " 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self';"
                    + " object-src 'none'; base-uri 'self'; form-action 'none'";

    private static final int MAX_FILE_BYTES = 16 * 1024 * 1024;

    private static final Map<String, String> CONTENT_TYPES =
            Map.ofEntries(
                    Map.entry("html", "text/html; charset=utf-8"),
                    Map.entry("js", "text/javascript; charset=utf-8"),
                    Map.entry("mjs", "text/javascript; charset=utf-8"),
                    Map.entry("css", "text/css; charset=utf-8"),
                    Map.entry("json", "application/json; charset=utf-8"),
                    Map.entry("map", "application/json; charset=utf-8"),
                    Map.entry("txt", "text/plain; charset=utf-8"),
                    Map.entry("svg", "image/svg+xml"),
                    Map.entry("png", "image/png"),
                    Map.entry("jpg", "image/jpeg"),
                    Map.entry("gif", "image/gif"),
                    Map.entry("ico", "image/x-icon"),
                    Map.entry("webp", "image/webp"),
                    Map.entry("woff", "font/woff"),
                    Map.entry("woff2", "font/woff2"),
                    Map.entry("ttf", "font/ttf"));

    /** A file's bytes and content type. */
    record StaticFile(byte[] bytes, String contentType) {
        boolean isHtml() {
            return contentType.startsWith("text/html");
        }
    }

    private final ClassLoader classLoader;
    private final String root;
    private final Map<String, StaticFile> cache = new ConcurrentHashMap<>();

    /** The panel's files. */
    public StaticFiles(ClassLoader classLoader) {
        this(classLoader, ROOT);
    }

    /**
     * @param root the classpath folder, ending with '/'
     */
    public StaticFiles(ClassLoader classLoader, String root) {
        this.classLoader = classLoader;
        this.root = root;
    }

    /**
     * The file at {@code path} (already validated, starting with '/'), or null. "/" is the index.
     */
    StaticFile find(String path) {
        String relative = path.equals("/") ? INDEX : path.substring(1);
        if (relative.isEmpty() || relative.endsWith("/")) {
            return null;
        }
        StaticFile cached = cache.get(relative);
        if (cached != null) {
            return cached;
        }
        StaticFile loaded = load(relative);
        if (loaded != null) {
            cache.put(relative, loaded);
        }
        return loaded;
    }

    private StaticFile load(String relative) {
        URL url = classLoader.getResource(root + relative);
        if (url == null || url.toString().endsWith("/")) {
            return null; // jars resolve "dir" to the entry "dir/": never serve a directory
        }
        try {
            if ("file".equals(url.getProtocol())) {
                Path p = Paths.get(url.toURI());
                if (Files.isDirectory(p)) {
                    return null; // a directory reads as its listing: never serve it
                }
            }
            try (InputStream in = url.openStream()) {
                byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
                if (bytes.length > MAX_FILE_BYTES) {
                    return null;
                }
                return new StaticFile(bytes, contentType(relative));
            }
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    static String contentType(String name) {
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return CONTENT_TYPES.getOrDefault(ext, "application/octet-stream");
    }
}
