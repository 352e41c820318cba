package io.flinkinsight.plugin.http;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ScrapeWritesTest {

    private final ScrapeFigures figures = new ScrapeFigures();

    /** A connection that counts its closes; a close ends its write, as a closed Netty connection's failed write does. */
    private static final class Connection {
        final AtomicInteger closed = new AtomicInteger();
        Runnable end;

        ScrapeWrites.Client client(String ip) {
            return new ScrapeWrites.Client(ip == null ? null : address(ip), () -> {
                closed.incrementAndGet();
                end.run();
            });
        }
    }

    private static Connection start(ScrapeWrites writes, String ip) {
        Connection c = new Connection();
        c.end = writes.start(c.client(ip));
        return c;
    }

    @Test
    void anAddressHoldsSeveralBodiesOnlyWhileNoOtherAddressNeedsThePlaces() {
        ScrapeWrites writes = new ScrapeWrites(4, figures);
        List<Connection> sameHost = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sameHost.add(start(writes, "10.0.0.1"));
        }
        assertThat(figures.writesAborted()).as("room for all four").isZero();

        Connection other = start(writes, "10.0.0.2");

        assertThat(sameHost.get(0).closed).as("the oldest of the address holding most").hasValue(1);
        assertThat(writes.held()).isEqualTo(4);
        Connection again = start(writes, "10.0.0.1");
        assertThat(sameHost.get(1).closed).as("its own next oldest, not the other address's only one").hasValue(1);
        assertThat(other.closed).hasValue(0);
        assertThat(again.closed).hasValue(0);
        assertThat(figures.writesAborted()).isEqualTo(2);

        sameHost.get(0).end.run(); // its write ends late (the close failed it): nothing more happens
        assertThat(writes.held()).isEqualTo(4);
        List.of(sameHost.get(2), sameHost.get(3), other, again).forEach(c -> c.end.run());
        assertThat(writes.held()).isZero();
    }

    @Test
    void nonReadersFromFewerAddressesThanPlacesNeverDisplaceAnotherAddressesOnlyBody() {
        ScrapeWrites writes = new ScrapeWrites(4, figures);
        Connection prometheus = start(writes, "10.0.0.1");
        for (int i = 0; i < 300; i++) {
            start(writes, "10.0.0." + (2 + i % 3)); // never written
            assertThat(writes.held()).isLessThanOrEqualTo(4);
        }
        assertThat(prometheus.closed).hasValue(0);
        assertThat(figures.writesAborted()).isEqualTo(300 - 3);
    }

    @Test
    void whenEveryAddressHoldsOneTheOldestMakesRoom() {
        ScrapeWrites writes = new ScrapeWrites(2, figures);
        Connection a = start(writes, "10.0.0.1");
        Connection b = start(writes, "10.0.0.2");
        a.end.run(); // written: a place is free again
        Connection c = start(writes, "10.0.0.3");
        assertThat(figures.writesAborted()).isZero();

        Connection d = start(writes, "10.0.0.4");

        assertThat(b.closed).as("the oldest unwritten one").hasValue(1);
        assertThat(List.of(a.closed.get(), c.closed.get(), d.closed.get())).containsOnly(0);
        assertThat(writes.held()).isEqualTo(2);
        assertThat(figures.writesAborted()).isEqualTo(1);
    }

    @Test
    void ipv6AddressesOfOneSlash64AreOneAddressAndUnknownAddressesEachTheirOwn() {
        ScrapeWrites writes = new ScrapeWrites(2, figures);
        Connection first = start(writes, "2001:db8:1:2::1");
        Connection sameNetwork = start(writes, "2001:db8:1:2:ffff::9");
        Connection otherNetwork = start(writes, "2001:db8:1:3::1");

        assertThat(first.closed).as("its /64 held both places").hasValue(1);
        assertThat(List.of(sameNetwork.closed.get(), otherNetwork.closed.get())).containsOnly(0);
        assertThat(ScrapeWrites.group(address("10.0.0.1"))).isEqualTo(ScrapeWrites.group(address("10.0.0.1")))
                .isNotEqualTo(ScrapeWrites.group(address("10.0.0.2")));
        assertThat(ScrapeWrites.group(null)).isNotEqualTo(ScrapeWrites.group(null));
    }

    @Test
    void manyClientsNeverHoldMoreThanTheBound() {
        ScrapeWrites writes = new ScrapeWrites(4, figures);
        Random random = new Random(25);
        List<Connection> open = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            if (!open.isEmpty() && random.nextInt(3) == 0) {
                int k = random.nextInt(open.size());
                open.remove(k).end.run();
                ips.remove(k);
            } else {
                String ip = "10.0.0." + random.nextInt(12);
                open.add(start(writes, ip));
                ips.add(ip);
            }
            assertThat(writes.held()).isLessThanOrEqualTo(4);
            List<String> holding = new ArrayList<>();
            for (int k = 0; k < open.size(); k++) {
                if (open.get(k).closed.get() == 0) {
                    holding.add(ips.get(k));
                }
            }
            assertThat(holding).as("unclosed writes: at most the bound").hasSizeLessThanOrEqualTo(4)
                    .hasSize(writes.held());
        }
        open.forEach(c -> c.end.run());
        assertThat(writes.held()).isZero();
    }

    @Test
    void aCloseThatThrowsStillFreesThePlace() {
        ScrapeWrites writes = new ScrapeWrites(1, figures);
        writes.start(new ScrapeWrites.Client(address("10.0.0.1"), () -> {
            throw new IllegalStateException("closing failed");
        }));
        Connection next = start(writes, "10.0.0.2");

        assertThat(writes.held()).isEqualTo(1);
        assertThat(figures.writesAborted()).isEqualTo(1);
        next.end.run();
        assertThat(writes.held()).isZero();
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }
}
