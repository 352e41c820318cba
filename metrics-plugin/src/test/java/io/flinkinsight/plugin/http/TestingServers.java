package io.flinkinsight.plugin.http;

import io.flinkinsight.plugin.scrape.ScrapeSource;
import io.flinkinsight.plugin.serve.RequestRouter;
import io.flinkinsight.plugin.serve.StaticFiles;

import java.util.Map;

/**
 * Servers answering as the plugin's with the options' defaults (two scrapes at once, 16 MiB
 * answers): the scrape, the JSON endpoints, the panel's files and an optional forwarder.
 */
public final class TestingServers {

    private TestingServers() {}

    public static InsightHttpServer server(
            HttpServerSettings settings, ScrapeSource scrape, Map<String, JsonEndpoint> endpoints) {
        return server(settings, scrape, endpoints, null);
    }

    public static InsightHttpServer server(
            HttpServerSettings settings,
            ScrapeSource scrape,
            Map<String, JsonEndpoint> endpoints,
            Forwarder forwarder) {
        return new InsightHttpServer(settings, router(settings, scrape, endpoints, forwarder));
    }

    public static RequestRouter router(
            HttpServerSettings settings,
            ScrapeSource scrape,
            Map<String, JsonEndpoint> endpoints,
            Forwarder forwarder) {
        ClassLoader jar = TestingServers.class.getClassLoader();
        return RequestRouter.forTests(
                scrape,
                endpoints,
                new StaticFiles(jar),
                new StaticFiles(jar, StaticFiles.TAB_ROOT),
                forwarder,
                2,
                RequestRouter.DEFAULT_MAX_ANSWER_BYTES,
                System::nanoTime);
    }
}
