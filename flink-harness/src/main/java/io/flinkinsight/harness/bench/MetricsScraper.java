package io.flinkinsight.harness.bench;

import io.flinkinsight.harness.FlinkRestClient;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scrapes {@code /metrics} URLs at a fixed rate, like a Prometheus server would, and counts what it
 * got.
 */
final class MetricsScraper implements AutoCloseable {

    private final FlinkRestClient http;
    private final List<String> urls;
    private final Duration interval;
    private final AtomicLong scrapes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private volatile boolean running = true;
    private final Thread thread;

    MetricsScraper(FlinkRestClient http, List<String> urls, Duration interval) {
        this.http = http;
        this.urls = List.copyOf(urls);
        this.interval = interval;
        this.thread = new Thread(this::run, "metrics-scraper");
        this.thread.setDaemon(true);
    }

    MetricsScraper start() {
        thread.start();
        return this;
    }

    private void run() {
        long next = System.nanoTime();
        while (running) {
            for (String url : urls) {
                try {
                    HttpResponse<String> response = http.get(url);
                    if (response.statusCode() == 200) {
                        scrapes.incrementAndGet();
                        bytes.addAndGet(response.body().length());
                    } else {
                        failures.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    failures.incrementAndGet();
                }
            }
            // Fixed rate, not fixed delay: a slow scrape must not lower the rate.
            next += interval.toNanos();
            long sleepNanos = next - System.nanoTime();
            if (sleepNanos > 0) {
                try {
                    Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    long scrapes() {
        return scrapes.get();
    }

    long failures() {
        return failures.get();
    }

    long bytes() {
        return bytes.get();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
