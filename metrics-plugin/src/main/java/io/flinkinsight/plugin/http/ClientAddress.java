package io.flinkinsight.plugin.http;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Who a client is, for the per-client limits: an IPv4 address, or the /64 network of an IPv6
 * address (one host gets a whole /64 and picks a new address from it at will, so per address would
 * be no limit at all). An IPv4 address mapped into IPv6 counts as itself.
 */
public final class ClientAddress {

    private static final int IPV6_NETWORK_BYTES = 8;

    private ClientAddress() {}

    /**
     * The client's key, or null when the address is not an IP address (a local channel in tests).
     */
    public static InetAddress of(SocketAddress remote) {
        if (!(remote instanceof InetSocketAddress socket) || socket.getAddress() == null) {
            return null;
        }
        return of(socket.getAddress());
    }

    /** The key of {@code address}: itself for IPv4, its /64 network for IPv6. */
    public static InetAddress of(InetAddress address) {
        if (address instanceof Inet4Address) {
            return address;
        }
        if (address instanceof Inet6Address) {
            byte[] bytes = address.getAddress();
            try {
                if (isMappedIpv4(bytes)) {
                    return InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16));
                }
                byte[] network = Arrays.copyOf(bytes, bytes.length);
                Arrays.fill(network, IPV6_NETWORK_BYTES, network.length, (byte) 0);
                return InetAddress.getByAddress(
                        network); // without the scope: one network however it is reached
            } catch (UnknownHostException e) {
                throw new IllegalStateException("16 bytes are always an address", e);
            }
        }
        return address;
    }

    /** {@code ::ffff:a.b.c.d}. */
    private static boolean isMappedIpv4(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }
}
