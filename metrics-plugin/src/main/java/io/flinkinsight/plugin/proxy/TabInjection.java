package io.flinkinsight.plugin.proxy;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Adds the Insight tab to Flink's dashboard: one {@code <script>} tag, loading {@value #SCRIPT_SRC}
 * from the plugin, put before {@code </body>} of Flink's {@code index.html}. Flink's dashboard has
 * no extension point, so the proxied page is the only place to hook in; the script itself finds
 * Flink's menu in the browser.
 */
final class TabInjection {

    /**
     * The tab's script, served from the classpath folder {@code flink-tab/} at {@code
     * /insight-tab/tab.js}, relative to Flink's page at {@code /flink/}, so it also resolves behind
     * a reverse proxy that adds a path prefix.
     */
    static final String SCRIPT_SRC = "../insight-tab/tab.js";

    static final String SCRIPT_TAG = "<script src=\"" + SCRIPT_SRC + "\"></script>";

    private static final String BODY_END = "</body>";

    private TabInjection() {}

    /** Whether an answer with this content type is an HTML page the tag may go into. */
    static boolean isHtml(String contentType) {
        return contentType != null
                && contentType.trim().toLowerCase(Locale.ROOT).startsWith("text/html");
    }

    /**
     * The page with the tag before its last {@code </body>} (any case), or at the end when there is
     * none. A page that already loads the script is returned unchanged, so injecting twice adds one
     * tag.
     */
    static byte[] inject(byte[] html) {
        String page = new String(html, StandardCharsets.UTF_8);
        if (page.contains("src=\"" + SCRIPT_SRC + "\"")) {
            return html;
        }
        int at = lastIndexOfIgnoreCase(page, BODY_END);
        String injected =
                at < 0
                        ? page + SCRIPT_TAG
                        : page.substring(0, at) + SCRIPT_TAG + page.substring(at);
        return injected.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Index of the last {@code needle} in {@code text} ignoring ASCII case; lowering the whole page
     * could shift it.
     */
    private static int lastIndexOfIgnoreCase(String text, String needle) {
        for (int i = text.length() - needle.length(); i >= 0; i--) {
            if (text.regionMatches(true, i, needle, 0, needle.length())) {
                return i;
            }
        }
        return -1;
    }
}
