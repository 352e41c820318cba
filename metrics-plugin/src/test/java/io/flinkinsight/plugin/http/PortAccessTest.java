package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.serve.RequestRouter;
import io.flinkinsight.plugin.serve.StaticFiles;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static io.flinkinsight.plugin.http.TestingHttpChannel.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PortAccessTest {

    private static final String TOKEN = "s3cret-token-0123456789";
    private static final String PREFIX = "metrics.reporter.insight.";
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 40000);
    private static final InetSocketAddress REMOTE = new InetSocketAddress("10.1.2.3", 40000);

    private static TestingHttpChannel channel(PortAccess access) {
        RequestRouter router =
                RequestRouter.forTests(
                        (format, out) -> out.write("up 1\n".getBytes(StandardCharsets.UTF_8)),
                        Map.of("/api/v1/echo", q -> Map.of("ok", true)),
                        new StaticFiles(PortAccessTest.class.getClassLoader()));
        return new TestingHttpChannel(
                router, Runnable::run, TestingServerSettings.loopback(access));
    }

    /** The headers given, with {@code Host: localhost:9250} unless they name a host. */
    private static HttpHeaders headers(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        if (!h.contains("Host")) {
            h.add("Host", "localhost:9250");
        }
        return h;
    }

    private static RequestTarget target(String uri) throws Exception {
        return RequestTarget.parse(uri);
    }

    @Test
    void loopbackModeAnswersOnlyLoopbackButMetricsEveryone() throws Exception {
        PortAccess access = PortAccess.parse("loopback", "", "", PREFIX);

        assertThat(access.refusal(target("/api/v1/jobs"), headers(), LOOPBACK)).isNull();
        assertThat(access.refusal(target("/api/v1/jobs"), headers(), REMOTE).status().code())
                .isEqualTo(403);
        assertThat(
                        access.refusal(target("/flink/jobs/overview"), headers(), REMOTE)
                                .status()
                                .code())
                .isEqualTo(403);
        assertThat(access.refusal(target("/"), headers(), REMOTE).status().code()).isEqualTo(403);
        assertThat(access.refusal(target("/metrics"), headers(), REMOTE)).isNull();
    }

    @Test
    void tokenModeNeedsTheBearerTokenOrItsCookie() throws Exception {
        PortAccess access = PortAccess.parse("token", TOKEN, "", PREFIX);

        HttpReply none = access.refusal(target("/api/v1/jobs"), headers(), LOOPBACK);
        assertThat(none.status().code()).isEqualTo(401);
        assertThat(none.headers())
                .containsEntry("WWW-Authenticate", "Bearer realm=\"flink-insight\"");
        assertThat(
                        access.refusal(
                                target("/api/v1/jobs"),
                                headers("Authorization", "Bearer " + TOKEN),
                                REMOTE))
                .isNull();
        assertThat(
                        access.refusal(
                                target("/api/v1/jobs"),
                                headers("Authorization", "bearer " + TOKEN),
                                REMOTE))
                .isNull();
        assertThat(
                        access.refusal(
                                        target("/api/v1/jobs"),
                                        headers("Authorization", "Bearer " + TOKEN + "x"),
                                        REMOTE)
                                .status()
                                .code())
                .isEqualTo(401);
        assertThat(
                        access.refusal(
                                        target("/api/v1/jobs"),
                                        headers("Authorization", "Basic " + TOKEN),
                                        REMOTE)
                                .status()
                                .code())
                .isEqualTo(401);
        assertThat(
                        access.refusal(
                                target("/api/v1/jobs"),
                                headers(
                                        "Cookie",
                                        "a=b; " + PortAccess.TOKEN_COOKIE + "9250=" + TOKEN),
                                REMOTE,
                                9250))
                .isNull();
        assertThat(
                        access.refusal(
                                        target("/api/v1/jobs"),
                                        headers(
                                                "Cookie",
                                                PortAccess.TOKEN_COOKIE + "9251=" + TOKEN),
                                        REMOTE,
                                        9250)
                                .status()
                                .code())
                .as("the cookie of another port")
                .isEqualTo(401);
        assertThat(access.refusal(target("/metrics"), headers(), REMOTE)).isNull();
    }

    @Test
    void tokenInTheQueryBecomesAnHttpOnlyCookieAndLeavesTheAddressBar() throws Exception {
        PortAccess access = PortAccess.parse("token", TOKEN, "", PREFIX);

        HttpReply login = access.tokenLogin(target("/?token=" + TOKEN), headers(), 9250);
        HttpReply behindTls =
                access.tokenLogin(
                        target("/?token=" + TOKEN),
                        headers("X-Forwarded-Proto", "https", "X-Forwarded-Prefix", "/insight/jm"),
                        9250);
        HttpReply badPrefix =
                access.tokenLogin(
                        target("/?token=" + TOKEN),
                        headers("X-Forwarded-Prefix", "/a;Domain=evil.example"),
                        9250);

        assertThat(login.status().code()).isEqualTo(303);
        assertThat(login.headers()).containsEntry("Location", "./");
        assertThat(login.headers().get("Set-Cookie"))
                .isEqualTo(
                        PortAccess.TOKEN_COOKIE
                                + "9250="
                                + TOKEN
                                + "; Path=/; HttpOnly; SameSite=Strict");
        assertThat(behindTls.headers().get("Set-Cookie"))
                .isEqualTo(
                        PortAccess.TOKEN_COOKIE
                                + "9250="
                                + TOKEN
                                + "; Path=/insight/jm; HttpOnly; SameSite=Strict; Secure");
        assertThat(badPrefix.headers().get("Set-Cookie"))
                .contains("; Path=/;")
                .doesNotContain("evil");
        assertThat(access.tokenLogin(target("/?token=wrong-token-0123456789"), headers(), 9250))
                .isNull();
        assertThat(access.tokenLogin(target("/api/v1/jobs?token=" + TOKEN), headers(), 9250))
                .isNull();
        assertThat(PortAccess.OPEN.tokenLogin(target("/?token=" + TOKEN), headers(), 9250))
                .isNull();
    }

    @Test
    void pagesOfOtherSitesAreRefusedUnlessTheirOriginIsAllowed() throws Exception {
        PortAccess open = PortAccess.OPEN;
        HttpHeaders crossSiteFetch =
                headers(
                        "Sec-Fetch-Site",
                        "cross-site",
                        "Sec-Fetch-Mode",
                        "cors",
                        "Sec-Fetch-Dest",
                        "empty",
                        "Origin",
                        "http://grafana.example:3000");
        HttpHeaders sameSiteImage =
                headers(
                        "Sec-Fetch-Site",
                        "same-site",
                        "Sec-Fetch-Mode",
                        "no-cors",
                        "Sec-Fetch-Dest",
                        "image");
        HttpHeaders linkFollowed =
                headers(
                        "Sec-Fetch-Site",
                        "cross-site",
                        "Sec-Fetch-Mode",
                        "navigate",
                        "Sec-Fetch-Dest",
                        "document");
        HttpHeaders framed =
                headers(
                        "Sec-Fetch-Site",
                        "cross-site",
                        "Sec-Fetch-Mode",
                        "navigate",
                        "Sec-Fetch-Dest",
                        "iframe");
        HttpHeaders ownPage = headers("Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "cors");

        assertThat(open.refusal(target("/api/v1/jobs"), crossSiteFetch, LOOPBACK).status().code())
                .isEqualTo(403);
        assertThat(
                        open.refusal(target("/flink/jobs/overview"), sameSiteImage, LOOPBACK)
                                .status()
                                .code())
                .isEqualTo(403);
        assertThat(open.refusal(target("/flink/jobs/overview"), framed, LOOPBACK).status().code())
                .isEqualTo(403);
        assertThat(open.refusal(target("/"), linkFollowed, LOOPBACK)).isNull();
        assertThat(open.refusal(target("/api/v1/jobs"), ownPage, LOOPBACK)).isNull();
        assertThat(open.refusal(target("/metrics"), crossSiteFetch, LOOPBACK)).isNull();
        assertThat(open.allowedOrigin(crossSiteFetch)).isNull();

        PortAccess grafana =
                PortAccess.parse(
                        "open", "", "http://GRAFANA.example:3000, https://x.example", PREFIX);
        assertThat(grafana.refusal(target("/api/v1/jobs"), crossSiteFetch, LOOPBACK)).isNull();
        assertThat(grafana.allowedOrigin(crossSiteFetch)).isEqualTo("http://grafana.example:3000");
        assertThat(grafana.allowedOrigin(headers("Origin", "http://grafana.example:3001")))
                .isNull();
    }

    @Test
    void badValuesNameTheKeyAndNeverEchoTheToken() {
        assertThatThrownBy(() -> PortAccess.parse("public", "", "", PREFIX))
                .hasMessageContaining(PREFIX + "http.access")
                .hasMessageContaining("open, loopback or token");
        assertThatThrownBy(() -> PortAccess.parse("token", "short-secret", "", PREFIX))
                .hasMessageContaining(PREFIX + "http.token")
                .hasMessageContaining("16")
                .hasMessageNotContaining("short-secret");
        assertThatThrownBy(() -> PortAccess.parse("token", "with space 0123456789", "", PREFIX))
                .hasMessageContaining(PREFIX + "http.token");
        for (String origin :
                new String[] {
                    "*",
                    "grafana.example",
                    "http://x.example/path",
                    "ftp://x.example",
                    "http://u@x.example"
                }) {
            assertThatThrownBy(() -> PortAccess.parse("open", "", origin, PREFIX))
                    .as(origin)
                    .hasMessageContaining(PREFIX + "http.allowed-origins");
        }
    }

    @Test
    void handlerAnswersRefusalsBeforeAnyRouteRuns() {
        try (TestingHttpChannel c = channel(PortAccess.parse("loopback", "", "", PREFIX))) {
            // Netty's EmbeddedChannel has no IP address: it stands for a remote client here.
            FullHttpResponse api = c.get("/api/v1/echo");
            assertThat(api.status().code()).isEqualTo(403);
            assertThat(body(api)).contains("loopback", "\"status\":403");
            assertThat(c.get("/metrics").status().code()).isEqualTo(200);
        }
        try (TestingHttpChannel c = channel(PortAccess.parse("token", TOKEN, "", PREFIX))) {
            assertThat(c.get("/api/v1/echo").status().code()).isEqualTo(401);
            assertThat(
                            c.get("/api/v1/echo", "Authorization: Bearer " + TOKEN + "\r\n")
                                    .status()
                                    .code())
                    .isEqualTo(200);
        }
        try (TestingHttpChannel c =
                channel(PortAccess.parse("open", "", "http://grafana.example:3000", PREFIX))) {
            FullHttpResponse r = c.get("/api/v1/echo", "Origin: http://grafana.example:3000\r\n");
            assertThat(r.headers().get("Access-Control-Allow-Origin"))
                    .isEqualTo("http://grafana.example:3000");
            assertThat(r.headers().get("Vary")).isEqualTo("origin");
            assertThat(
                            c.get("/api/v1/echo", "Origin: http://evil.example\r\n")
                                    .headers()
                                    .contains("Access-Control-Allow-Origin"))
                    .isFalse();
        }
    }

    @Test
    void aPageOfAnotherOriginIsRefusedOverPlainHttpToo() throws Exception {
        PortAccess open =
                PortAccess.parse("open", "", "", "ops.example", PREFIX)
                        .withOwnHostNames(java.util.List.of("jm"));

        // Over plain HTTP browsers send no Sec-Fetch-* headers, but a cross-origin read still
        // carries Origin.
        assertThat(
                        open.refusal(
                                        target("/api/v1/jobs"),
                                        headers("Host", "jm:9250", "Origin", "http://evil.example"),
                                        REMOTE)
                                .status()
                                .code())
                .isEqualTo(403);
        assertThat(
                        open.refusal(
                                target("/api/v1/jobs"),
                                headers("Host", "jm:9250", "Origin", "http://jm:9250"),
                                REMOTE))
                .isNull();
        assertThat(
                        open.refusal(
                                target("/metrics"),
                                headers("Host", "jm:9250", "Origin", "http://evil.example"),
                                REMOTE))
                .isNull();
        // Behind a reverse proxy that rewrites Host, the page's own module scripts carry the
        // proxy's origin.
        assertThat(
                        open.refusal(
                                target("/main.js"),
                                headers(
                                        "Host",
                                        "127.0.0.1:9250",
                                        "X-Forwarded-Host",
                                        "ops.example",
                                        "Origin",
                                        "https://ops.example"),
                                REMOTE))
                .isNull();
        assertThat(
                        open.refusal(
                                target("/main.js"),
                                headers(
                                        "Host",
                                        "127.0.0.1:9250",
                                        "Sec-Fetch-Site",
                                        "same-origin",
                                        "Sec-Fetch-Mode",
                                        "cors",
                                        "Origin",
                                        "https://ops.example"),
                                REMOTE))
                .isNull();
    }

    @Test
    void loopbackModeRefusesANameThatAPageCouldReResolveToLoopback() throws Exception {
        PortAccess access = PortAccess.parse("loopback", "", "", PREFIX);

        assertThat(
                        access.refusal(
                                        target("/api/v1/jobs"),
                                        headers("Host", "evil.example:9250"),
                                        LOOPBACK)
                                .status()
                                .code())
                .as("DNS rebinding")
                .isEqualTo(421);
        for (String host :
                new String[] {"localhost:9250", "127.0.0.1:9250", "127.0.0.2", "[::1]:9250"}) {
            assertThat(access.refusal(target("/api/v1/jobs"), headers("Host", host), LOOPBACK))
                    .as(host)
                    .isNull();
        }
    }

    @Test
    void tokensThatACookieCannotCarryAreRefused() {
        for (String token :
                new String[] {
                    "abcdefgh,ijklmnop",
                    "abcdefgh;ijklmnop",
                    "abcdefgh\"ijklmnop",
                    "abcdefgh\\ijklmnop"
                }) {
            assertThatThrownBy(() -> PortAccess.parse("token", token, "", PREFIX))
                    .as(token)
                    .hasMessageContaining(PREFIX + "http.token")
                    .hasMessageNotContaining(token);
        }
    }

    @Test
    void everyModeRefusesAHostNameItDoesNotKnowAgainstDnsRebinding() throws Exception {
        for (String mode : new String[] {"open", "loopback", "token"}) {
            PortAccess access =
                    PortAccess.parse(mode, TOKEN, "", "flink.example.com", PREFIX)
                            .withOwnHostNames(java.util.List.of("jm-0.flink.svc", "not a name"));
            String bearer = "Bearer " + TOKEN;
            for (String host :
                    new String[] {
                        "rebind.attacker.example:9250",
                        "rebind.attacker.example.:9250",
                        "flink.example.com.evil:9250",
                        "evil.example",
                        "localhost.evil:1",
                        "0x7f.1:9250",
                        "127.1:9250",
                        "[::1]x:9250",
                        "localhost:9250x",
                        "local%68ost:9250",
                        "localhost:99999x",
                        "xn--lcalhost-:1",
                        "[fe80::1%25eth0]:9250",
                        ""
                    }) {
                HttpReply r =
                        access.refusal(
                                target("/api/v1/jobs"),
                                headers("Host", host, "Authorization", bearer),
                                LOOPBACK);
                assertThat(r).as("%s with Host %s", mode, host).isNotNull();
                assertThat(r.status().code()).as("%s with Host %s", mode, host).isIn(400, 421);
            }
            for (String host :
                    new String[] {
                        "localhost:9250",
                        "LOCALHOST",
                        "localhost.",
                        "127.0.0.1:9250",
                        "[::1]:9250",
                        "flink.example.com",
                        "FLINK.example.com.:443"
                    }) {
                assertThat(
                                access.refusal(
                                        target("/api/v1/jobs"),
                                        headers("Host", host, "Authorization", bearer),
                                        LOOPBACK))
                        .as("%s with Host %s", mode, host)
                        .isNull();
            }
            HttpReply rebound =
                    access.refusal(
                            target("/flink/jobmanager/config"),
                            headers(
                                    "Host",
                                    "rebind.attacker.example:9250",
                                    "Origin",
                                    "http://rebind.attacker.example:9250",
                                    "Authorization",
                                    bearer),
                            LOOPBACK);
            assertThat(rebound.status().code()).isEqualTo(421);
            assertThat(rebound.body().toString(StandardCharsets.UTF_8))
                    .contains("metrics.reporter.insight.http.allowed-hosts");
            HttpHeaders noHost = new DefaultHttpHeaders().add("Authorization", bearer);
            assertThat(access.refusal(target("/api/v1/jobs"), noHost, LOOPBACK).status().code())
                    .as("%s without Host", mode)
                    .isEqualTo(400);
            assertThat(access.refusal(target("/metrics"), noHost, REMOTE))
                    .as("%s: /metrics needs no Host", mode)
                    .isNull();
            assertThat(
                            access.refusal(
                                    target("/api/v1/metrics?contains=insight_client_&limit=1000"),
                                    headers("Host", "evil.example"),
                                    REMOTE))
                    .as("%s: the hub's gathering is open", mode)
                    .isNull();
            assertThat(
                            access.refusal(
                                    target("/api/v1/queries?after=12&limit=500"),
                                    headers("Host", "10.1.2.3:9250"),
                                    REMOTE))
                    .as("%s: the hub's reading of the query log is open", mode)
                    .isNull();
            for (HttpHeaders otherSite :
                    List.of(
                            headers("Host", "evil.example"),
                            headers("Host", "evil.example:9250"),
                            new DefaultHttpHeaders())) {
                HttpReply refused =
                        access.refusal(
                                target("/api/v1/queries?after=12&limit=500"), otherSite, LOOPBACK);
                assertThat(refused)
                        .as(
                                "%s: a page re-resolved to this host reads no query log (%s)",
                                mode, rebound)
                        .isNotNull();
                assertThat(refused.status().code()).isEqualTo(421);
            }
            for (String other :
                    new String[] {
                        "/api/v1/queries",
                        "/api/v1/queries?statement=0123456789abcdef",
                        "/api/v1/queries?after=1",
                        "/api/v1/queries?after=1&limit=500&limit=1",
                        "/api/v1/queries?after=01&limit=500",
                        "/api/v1/queries?after=%2B1&limit=500",
                        "/api/v1/queries?after=1&limit=5000",
                        "/api/v1/queries?after=1&limit=500&statement=0123456789abcdef",
                        "/api/v1/queries/?after=1&limit=500",
                        "/api/v1/metrics",
                        "/api/v1/metrics?contains=insight_client_&limit=100000",
                        "/api/v1/metrics?contains=insight_client_&prefix=x",
                        "/api/v1/metrics?contains=Status",
                        "/api/v1/metrics?contains=insight_client_&contains=x",
                        "/api/v1/metrics?limit=5"
                    }) {
                assertThat(access.refusal(target(other), headers("Host", "evil.example"), REMOTE))
                        .as("%s: %s is the API's", mode, other)
                        .isNotNull();
            }
            HttpReply forwarded =
                    access.refusal(
                            target("/api/v1/jobs"),
                            headers(
                                    "Host",
                                    "127.0.0.1:9250",
                                    "X-Forwarded-Host",
                                    "rebind.attacker.example",
                                    "Authorization",
                                    bearer),
                            LOOPBACK);
            assertThat(forwarded.status().code())
                    .as("%s: a reverse proxy passing a rebinding name on", mode)
                    .isEqualTo(421);
            assertThat(
                            access.refusal(
                                    target("/api/v1/jobs"),
                                    headers(
                                            "Host",
                                            "127.0.0.1:9250",
                                            "X-Forwarded-Host",
                                            "flink.example.com",
                                            "Authorization",
                                            bearer),
                                    LOOPBACK))
                    .isNull();
        }
        PortAccess open =
                PortAccess.parse("open", "", "", "", PREFIX)
                        .withOwnHostNames(java.util.List.of("jm-0.flink.svc"));
        for (String host :
                new String[] {"10.1.2.3:9250", "jm-0.flink.svc:9250", "[2001:db8::1]:9250"}) {
            assertThat(open.refusal(target("/api/v1/jobs"), headers("Host", host), REMOTE))
                    .as(host)
                    .isNull();
        }
        PortAccess loopback =
                PortAccess.parse("loopback", "", "", "", PREFIX)
                        .withOwnHostNames(java.util.List.of("jm-0.flink.svc"));
        assertThat(
                        loopback.refusal(
                                        target("/api/v1/jobs"),
                                        headers("Host", "jm-0.flink.svc:9250"),
                                        LOOPBACK)
                                .status()
                                .code())
                .as("loopback takes only loopback names and listed ones")
                .isEqualTo(403);
    }

    @Test
    void theDefaultsServeThePanelOnlyToLoopbackAndMetricsToEveryone() throws Exception {
        PortAccess defaults =
                io.flinkinsight.plugin.runtime.InsightConfiguration.defaults().access();

        for (String path :
                new String[] {
                    "/",
                    "/index.html",
                    "/api/v1/overview",
                    "/api/v1/jobs",
                    "/api/v1/checkpoints",
                    "/flink/",
                    "/flink/jobs/overview",
                    "/flink/jobmanager/config"
                }) {
            assertThat(
                            defaults.refusal(target(path), headers("Host", "10.0.0.5:9250"), REMOTE)
                                    .status()
                                    .code())
                    .as("GET %s from a non-loopback peer", path)
                    .isEqualTo(403);
            assertThat(defaults.refusal(target(path), headers(), LOOPBACK))
                    .as("GET %s from loopback", path)
                    .isNull();
        }
        assertThat(defaults.refusal(target("/metrics"), headers("Host", "10.0.0.5:9250"), REMOTE))
                .isNull();
        assertThat(
                        defaults.refusal(
                                target("/api/v1/metrics?contains=insight_client_&limit=1000"),
                                headers("Host", "10.0.0.5:9250"),
                                REMOTE))
                .isNull();
        assertThat(
                        defaults.refusal(
                                        target("/api/v1/metrics?limit=100000"),
                                        headers("Host", "10.0.0.5:9250"),
                                        REMOTE)
                                .status()
                                .code())
                .isEqualTo(403);
    }

    @Test
    void loopbackModeRefusesWhatAServiceMeshSidecarForwards() throws Exception {
        PortAccess loopback = PortAccess.parse("loopback", "", "", PREFIX);

        HttpReply fromSidecar =
                loopback.refusal(
                        target("/api/v1/jobs"),
                        headers(),
                        new InetSocketAddress("127.0.0.6", 40000));
        assertThat(fromSidecar.status().code()).isEqualTo(403);
        assertThat(fromSidecar.body().toString(StandardCharsets.UTF_8)).contains("mesh", "token");
        assertThat(
                        loopback.refusal(
                                target("/metrics"),
                                headers(),
                                new InetSocketAddress("127.0.0.6", 40000)))
                .isNull();
    }

    @Test
    void withLiteralsKeptTheQueryLogFollowsTheModeLikeTheRestOfTheApi() throws Exception {
        RequestTarget hubRead = target("/api/v1/queries?after=12&limit=500");
        HttpHeaders remoteHost = headers("Host", "10.0.0.1:9250");
        assertThat(
                        PortAccess.parse("loopback", "", "", PREFIX)
                                .refusal(hubRead, remoteHost, REMOTE))
                .as("by default the hub's reading is open")
                .isNull();

        PortAccess loopback = PortAccess.parse("loopback", "", "", PREFIX).withQueryLogOpen(false);
        assertThat(loopback.refusal(hubRead, remoteHost, REMOTE)).isNotNull();
        assertThat(loopback.refusal(hubRead, headers("Host", "localhost:9250"), LOOPBACK)).isNull();
        assertThat(loopback.refusal(target("/metrics"), headers(), REMOTE)).isNull();
        assertThat(
                        loopback.refusal(
                                target("/api/v1/metrics?contains=insight_client_&limit=1000"),
                                remoteHost,
                                REMOTE))
                .isNull();

        PortAccess token = PortAccess.parse("token", TOKEN, "", PREFIX).withQueryLogOpen(false);
        assertThat(token.refusal(hubRead, remoteHost, REMOTE)).isNotNull();
        assertThat(
                        token.refusal(
                                hubRead,
                                headers(
                                        "Host",
                                        "10.0.0.1:9250",
                                        "Authorization",
                                        "Bearer " + TOKEN),
                                REMOTE))
                .isNull();

        PortAccess open = PortAccess.parse("open", "", "", PREFIX).withQueryLogOpen(false);
        assertThat(open.refusal(hubRead, remoteHost, REMOTE)).isNull();

        assertThat(loopback)
                .isNotEqualTo(PortAccess.parse("loopback", "", "", PREFIX))
                .isEqualTo(loopback.withOwnHostNames(List.of()))
                .isEqualTo(PortAccess.parse("loopback", "", "", PREFIX).withQueryLogOpen(false));
        assertThat(loopback.onlyScrape("why").refusal(hubRead, remoteHost, REMOTE)).isNotNull();
    }

    @Test
    void theSameOptionsGiveEqualAccessSoTheSharedRuntimeDoesNotWarn() {
        assertThat(
                        PortAccess.parse(
                                "token", TOKEN, "https://a.example", "flink.example.com", PREFIX))
                .isEqualTo(
                        PortAccess.parse(
                                "token", TOKEN, "https://a.example", "flink.example.com", PREFIX))
                .isNotEqualTo(
                        PortAccess.parse(
                                "token",
                                TOKEN + "x",
                                "https://a.example",
                                "flink.example.com",
                                PREFIX))
                .isNotEqualTo(PortAccess.parse("token", TOKEN, "https://a.example", "", PREFIX));
    }

    @Test
    void everyForwardedHostMustBeAllowedAndOnlyScrapeRefusesTheRest() throws Exception {
        PortAccess open = PortAccess.parse("open", "", "", "", PREFIX);
        for (String forwarded :
                new String[] {"localhost, attacker.example", "attacker.example", "localhost,x y"}) {
            assertThat(
                            open.refusal(
                                            target("/api/v1/jobs"),
                                            headers(
                                                    "Host",
                                                    "127.0.0.1:9250",
                                                    "X-Forwarded-Host",
                                                    forwarded),
                                            REMOTE)
                                    .status()
                                    .code())
                    .as(forwarded)
                    .isEqualTo(421);
        }
        HttpHeaders twoHeaders = headers("Host", "127.0.0.1:9250", "X-Forwarded-Host", "localhost");
        twoHeaders.add("X-Forwarded-Host", "attacker.example");
        assertThat(open.refusal(target("/api/v1/jobs"), twoHeaders, REMOTE).status().code())
                .isEqualTo(421);

        PortAccess scrapeOnly =
                PortAccess.parse("loopback", "", "", "", PREFIX).onlyScrape("mutual TLS, see why");
        HttpReply refused = scrapeOnly.refusal(target("/api/v1/jobs"), headers(), LOOPBACK);
        assertThat(refused.status().code()).isEqualTo(403);
        assertThat(refused.body().toString(StandardCharsets.UTF_8)).contains("mutual TLS, see why");
        assertThat(scrapeOnly.refusal(target("/flink/overview"), headers(), LOOPBACK)).isNotNull();
        assertThat(scrapeOnly.refusal(target("/metrics"), headers(), LOOPBACK)).isNull();
        assertThat(
                        scrapeOnly
                                .withOwnHostNames(java.util.List.of("jm"))
                                .refusal(target("/"), headers(), LOOPBACK))
                .as("kept when the host names are added")
                .isNotNull();
    }
}
