package io.flinkinsight.plugin.proxy;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TabInjectionTest {

    /** The shape of Flink 2.2's web/index.html: module scripts, then the end of the body. */
    private static final String FLINK_INDEX =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><base href=\"./\"></head>\n"
                    + "  <body>\n    <flink-root></flink-root>\n  <script src=\"main.6cd446413e0aff84.js\" type=\"module\">"
                    + "</script></body>\n</html>";

    private static String inject(String html) {
        return new String(
                TabInjection.inject(html.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    @Test
    void scriptTagGoesRightBeforeTheClosingBodyTag() {
        String page = inject(FLINK_INDEX);

        assertThat(page)
                .contains("type=\"module\"></script>" + TabInjection.SCRIPT_TAG + "</body>");
        assertThat(page.replace(TabInjection.SCRIPT_TAG, "")).isEqualTo(FLINK_INDEX);
    }

    @Test
    void injectingTwiceAddsOneTag() {
        String twice = inject(inject(FLINK_INDEX));

        assertThat(twice.split(java.util.regex.Pattern.quote(TabInjection.SCRIPT_TAG), -1))
                .hasSize(2);
        assertThat(twice).isEqualTo(inject(FLINK_INDEX));
    }

    @Test
    void pageWithoutClosingBodyGetsTheTagAtTheEnd() {
        assertThat(inject("<html><body><flink-root></flink-root>"))
                .isEqualTo("<html><body><flink-root></flink-root>" + TabInjection.SCRIPT_TAG);
    }

    @Test
    void closingBodyIsFoundInAnyCaseAndTheLastOneWins() {
        String page = inject("<BODY><pre>&lt;/body&gt; </body> in text</pre></Body >x</BODY>");

        assertThat(page).endsWith(TabInjection.SCRIPT_TAG + "</BODY>");
    }

    @Test
    void nonAsciiTextBeforeTheBodyEndKeepsItsBytes() {
        String page = inject("<body>İstanbul – ünïcode</body>");

        assertThat(page)
                .isEqualTo("<body>İstanbul – ünïcode" + TabInjection.SCRIPT_TAG + "</body>");
    }

    @Test
    void onlyHtmlContentTypesAreInjectable() {
        assertThat(TabInjection.isHtml("text/html")).isTrue();
        assertThat(TabInjection.isHtml("Text/HTML; charset=UTF-8")).isTrue();
        assertThat(TabInjection.isHtml("application/javascript")).isFalse();
        assertThat(TabInjection.isHtml("application/json")).isFalse();
        assertThat(TabInjection.isHtml(null)).isFalse();
    }

    @Test
    void onlyFlinksIndexIsInjected() {
        assertThat(DashboardRoutes.isIndex(List.of())).isTrue();
        assertThat(DashboardRoutes.isIndex(List.of("index.html"))).isTrue();
        assertThat(DashboardRoutes.isIndex(List.of("jobs", "overview"))).isFalse();
        assertThat(DashboardRoutes.isIndex(List.of("main.6cd446413e0aff84.js"))).isFalse();
        assertThat(DashboardRoutes.isIndex(List.of("assets", "index.html"))).isFalse();
    }
}
