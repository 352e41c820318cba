package io.flinkinsight.plugin.hub;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.common.RateLimitedLog;
import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.OwnThreads;
import io.flinkinsight.plugin.durable.DurableStores;
import io.flinkinsight.plugin.store.InsightStores;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.Configuration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The JobManager-side gatherer: every {@code hubPollInterval}, on its own daemon thread {@value
 * #THREAD_NAME}, it reads what the panel needs from Flink's own REST API (which already collects
 * TaskManager metrics), so no TaskManager has to be listed by the user; then the interactive
 * client's figures from the client processes listed in {@code hub.clients} ({@link
 * ClientGatherer}), which Flink does not know. Never runs on a Flink thread; failures are logged
 * once a minute.
 *
 * <p>Only the leading JobManager polls ({@link Leadership}): every JobManager process runs a hub,
 * but while its process does not lead (a standby under high availability, or before the
 * ResourceManager starts) the hub sends no request, neither to Flink's REST API nor to the client
 * processes. The hub's thread looks at the leadership every {@value #LEADERSHIP_CHECK_MILLIS} ms (a
 * volatile read), tells its {@link HubLeadershipListener} of each change and runs a round whenever
 * it leads and the poll interval has passed since the last one ended; a new leader polls at once.
 * Under high availability it also follows which JobManager leads ({@link LeaderRestAddress}), for a
 * standby's overview.
 */
public final class Hub implements AutoCloseable {

    public static final String THREAD_NAME = "flink-insight-hub";

    /**
     * How long after the hub's start Flink's REST API may not answer without a WARN: it starts
     * after the reporters.
     */
    static final long START_UP_GRACE_MILLIS = 60_000;

    private static final Logger LOG = LoggerFactory.getLogger(Hub.class);
    private static final long FIRST_POLL_DELAY_MILLIS = 1_000;

    /** How often the hub's thread looks whether the leadership changed (at most). */
    static final long LEADERSHIP_CHECK_MILLIS = 1_000;

    private static final long WARN_INTERVAL_MILLIS = 60_000;

    private final HubSettings settings;
    private final InsightStores stores;
    private final FlinkCapabilities flink;
    private final Clock clock;
    private final RateLimitedLog warnings;
    private final FlinkBoundary ownThread;
    private final ScheduledExecutorService executor;
    private final ClientGatherer clients; // null when no client process is listed
    private HubPoller poller; // created on the hub thread, once the URL is resolved
    private final Leadership leadership;
    private final HubLeadershipListener leadershipListener;

    /** The leadership as the hub's thread last saw it (and told its listener); hub thread only. */
    private boolean ledLastTick;

    /** When the next round is due (System.nanoTime()), while leading; hub thread only. */
    private long nextRoundNanos;

    /** Follows the leading JobManager under high availability; null without, or until looked up. */
    private volatile LeaderRestAddress leaderAddress;

    private boolean leaderAddressLookedUp; // hub thread only

    /** Requests sent to Flink's REST API, for {@code flink_insight_hub_rest_requests_total}. */
    private final LongAdder restRequests = new LongAdder();

    /** The stores on disk, read back before the first round; null while not (or never) opened. */
    private volatile DurableStores durable;

    private boolean durableOpened; // hub thread only

    /**
     * Flink's configuration, as the runtime read it for the whole process; may throw while it
     * cannot be read.
     */
    private final Supplier<Map<String, String>> flinkConfiguration;

    private long rounds; // started so far

    /**
     * Whether Flink's REST API answered a round at least once; until then, and within the start-up
     * grace, no WARN.
     */
    private boolean flinkAnswered;

    private boolean waitingLogged;
    private final long startedAtMillis;

    /** Flink's REST URL and TLS, resolved from its configuration on first use. */
    private final FlinkRestEndpoint rest;

    /**
     * A hub whose rounds are not scheduled: {@link #start} schedules them, a test runs them by
     * hand.
     */
    @VisibleForTesting
    Hub(
            HubSettings settings,
            InsightStores stores,
            FlinkCapabilities flink,
            Clock clock,
            Supplier<Map<String, String>> flinkConfiguration,
            Leadership leadership,
            HubLeadershipListener leadershipListener) {
        this.settings = settings;
        this.leadership = leadership;
        this.leadershipListener = leadershipListener;
        this.flinkConfiguration = flinkConfiguration;
        this.stores = stores;
        this.flink = flink;
        this.clock = clock;
        this.warnings = new RateLimitedLog(LOG, clock, WARN_INTERVAL_MILLIS);
        this.rest = new FlinkRestEndpoint(settings.flinkRestUrl(), flinkConfiguration, warnings);
        this.startedAtMillis = clock.millis();
        this.ownThread = new FlinkBoundary(LOG, clock);
        this.executor = OwnThreads.scheduler(THREAD_NAME);
        this.clients =
                settings.clients().isEmpty()
                        ? null
                        : new ClientGatherer(
                                settings.clients(),
                                stores.series(),
                                stores.statements(),
                                clock,
                                settings.clientsOverHttps(),
                                () -> {
                                    rest.url(); // reads Flink's REST TLS once
                                    return rest.tlsClient();
                                });
    }

    /**
     * Starts polling; returns at once (nothing is resolved or fetched on the caller's thread).
     *
     * @param flink what Flink reports by itself; the hub fills in from REST what it does not
     * @param flinkConfiguration Flink's configuration ({@code FLINK_CONF_DIR}), asked when the URL
     *     is resolved
     * @param leadership whether this JobManager leads: the hub polls only then
     * @param leadershipListener told on the hub's thread when leadership is gained and lost
     */
    public static Hub start(
            HubSettings settings,
            InsightStores stores,
            FlinkCapabilities flink,
            Clock clock,
            Supplier<Map<String, String>> flinkConfiguration,
            Leadership leadership,
            HubLeadershipListener leadershipListener) {
        Hub hub =
                new Hub(
                        settings,
                        stores,
                        flink,
                        clock,
                        flinkConfiguration,
                        leadership,
                        leadershipListener);
        hub.executor.scheduleWithFixedDelay(
                hub::tick,
                FIRST_POLL_DELAY_MILLIS,
                Math.min(LEADERSHIP_CHECK_MILLIS, settings.pollInterval().toMillis()),
                TimeUnit.MILLISECONDS);
        return hub;
    }

    /**
     * One look at the leadership, on the hub's thread: tells the listener of a change, and runs a
     * round when leading and one is due. Guarded, so nothing cancels the schedule.
     */
    @VisibleForTesting
    void tick() {
        ownThread.runScheduled("the hub's look at the leadership", this::lookUpLeaderOnce);
        boolean leads = leadership.leading();
        if (leads != ledLastTick) {
            ledLastTick = leads;
            LOG.info(
                    leads
                            ? "Flink Insight hub: this JobManager leads; it polls every {}"
                            : "Flink Insight hub: this JobManager no longer leads; it stops polling",
                    settings.pollInterval());
            ownThread.runScheduled(
                    "the hub's leadership listener",
                    leads ? this::gainedLeadership : this::lostLeadership);
            nextRoundNanos = System.nanoTime(); // a new leader polls at once
        }
        if (leads && System.nanoTime() - nextRoundNanos >= 0) {
            pollRound();
            nextRoundNanos = System.nanoTime() + settings.pollInterval().toNanos();
        }
    }

    /**
     * Under high availability, starts following the leading JobManager once (the first tick), so a
     * standby can name it; nothing without high availability.
     */
    private void lookUpLeaderOnce() {
        if (leaderAddressLookedUp) {
            return;
        }
        leaderAddressLookedUp = true;
        Configuration flink = Configuration.fromMap(flinkConfiguration.get());
        if (LeaderRestAddress.highlyAvailable(flink)) {
            LeaderRestAddress address = LeaderRestAddress.start(flink);
            leaderAddress = address;
            if (address != null && executor.isShutdown()) {
                address.close(); // closed while starting: close() may not have seen it
            }
        }
    }

    /** Whether this JobManager leads its cluster, i.e. its hub polls. */
    public boolean leading() {
        return leadership.leading();
    }

    /**
     * The leading JobManager's REST URL: under high availability the one Flink's HA services name
     * (exact, also for the leader itself: several JobManagers on one host share a configuration
     * file but not a port); else this one's while it leads; null while unknown.
     */
    public String leaderRestUrl() {
        LeaderRestAddress address = leaderAddress;
        String named = address == null ? null : address.url();
        if (named != null) {
            return named;
        }
        return leading() ? flinkRestUrl() : null;
    }

    /** Requests this hub sent to Flink's REST API so far. */
    public long restRequests() {
        return restRequests.sum();
    }

    /** Requests this hub sent to the client processes ({@code hub.clients}) so far. */
    public long clientRequests() {
        return clients == null ? 0 : clients.requestsSent();
    }

    /**
     * One round: Flink's REST API (once its URL is resolved), then the client processes; nothing
     * while this JobManager does not lead. Each part is guarded on its own, so one failing neither
     * keeps the other from running nor cancels the schedule (which an exception would, silently).
     */
    @VisibleForTesting
    void pollRound() {
        if (!leadership.leading()) {
            return;
        }
        HubPoller flink = pollerOrNull();
        HubRound round = new HubRound(++rounds, clock.millis(), HubPoller.MAX_REQUESTS_PER_POLL);
        if (flink != null) {
            ownThread.runScheduled(
                    "the hub's poll of Flink's REST API", () -> pollFlink(flink, round));
        }
        if (clients != null && !Thread.currentThread().isInterrupted()) {
            ownThread.runScheduled(
                    "the hub's gathering of the client processes' figures",
                    () -> pollClients(round));
        }
    }

    /**
     * This JobManager leads now: reads back what the previous leader (or this JobManager before a
     * restart) wrote to {@code stores.dir}, before the first round adds to the stores, then writes
     * from there on; then the listener.
     */
    private void gainedLeadership() {
        if (!durableOpened) {
            durableOpened = true;
            durable =
                    DurableStores.open(settings.stores(), flinkConfiguration.get(), stores, clock);
        }
        DurableStores d = durable;
        if (d != null) {
            d.restore();
            d.startWriting();
        }
        leadershipListener.gainedLeadership();
    }

    /** This JobManager no longer leads: another writes to {@code stores.dir} now; the listener. */
    private void lostLeadership() {
        DurableStores d = durable;
        if (d != null) {
            d.stopWriting();
        }
        leadershipListener.lostLeadership();
    }

    /** The hub's stores on disk, or null when they are kept in memory only. */
    public DurableStores durableStores() {
        return durable;
    }

    private void pollClients(HubRound round) {
        try {
            clients.poll(round);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The poller of Flink's REST API, made at the first round that resolves its URL; null until
     * then.
     */
    private HubPoller pollerOrNull() {
        if (poller == null) {
            ownThread.runScheduled(
                    "the hub's start of its Flink REST API poller",
                    () -> {
                        String url = flinkRestUrl();
                        if (url != null) { // else logged once a minute by flinkRestUrl(); retried
                            // at the next round
                            LOG.info(
                                    "Flink Insight hub polls Flink's REST API at {} every {}",
                                    url,
                                    settings.pollInterval());
                            poller =
                                    new HubPoller(
                                            new HttpRestSource(url, restTlsClient()),
                                            stores.series(),
                                            stores.jobs(),
                                            stores.checkpoints(),
                                            flink,
                                            clock);
                        }
                    });
        }
        return poller;
    }

    private void pollFlink(HubPoller flink, HubRound round) {
        try {
            try {
                flink.poll(round);
            } finally {
                restRequests.add(round.requests());
            }
            boolean allFailed = round.requests() > 0 && round.failures() == round.requests();
            if (!allFailed) {
                flinkAnswered = true;
            }
            if (round.failures() == 0) {
                return;
            }
            String what =
                    "Flink Insight hub: "
                            + round.failures()
                            + " of "
                            + round.requests()
                            + " REST requests failed, first "
                            + round.firstFailure();
            if (!flinkAnswered && clock.millis() - startedAtMillis < START_UP_GRACE_MILLIS) {
                // The JobManager opens its reporters before its REST endpoint: a first round may
                // find it closed.
                if (!waitingLogged) {
                    waitingLogged = true;
                    LOG.info(
                            "Flink Insight hub: Flink's REST API does not answer yet ({}); waiting for it",
                            what);
                }
                return;
            }
            warnings.warn(what, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Flink's REST base URL (e.g. {@code http://127.0.0.1:8081}): the configured one, else derived
     * from Flink's configuration on first use; null while it cannot be resolved. Called on the
     * hub's and the HTTP server's threads, never on a Flink thread.
     */
    public String flinkRestUrl() {
        return rest.url();
    }

    /**
     * The TLS context for calls to Flink's REST API (and to other processes' plugin ports), or null
     * for plain HTTP; known once {@link #flinkRestUrl()} resolved.
     */
    public SSLContext restTlsClient() {
        return rest.tlsClient();
    }

    /**
     * What the gathering of client figures refused so far (answers too large, the round's byte
     * budget, labels, series), by reason; empty when no client process is listed.
     */
    public Map<String, Long> clientRefusals() {
        return clients == null ? Map.of() : clients.refusals();
    }

    /**
     * Stops polling; waits at most two seconds for a poll in flight (its requests are interrupted).
     */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LeaderRestAddress address = leaderAddress;
        if (address != null) {
            address.close();
        }
        DurableStores d = durable;
        if (d != null) {
            d.close(); // one last write of what is new, if this hub still writes
        }
    }

    @VisibleForTesting
    boolean isTerminated() {
        return executor.isTerminated();
    }
}
