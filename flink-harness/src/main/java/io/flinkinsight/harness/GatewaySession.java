package io.flinkinsight.harness;

import java.util.List;
import java.util.Map;

/**
 * One session on the SQL Gateway, whatever the client: Flink's JDBC driver ({@link SqlSession}) or
 * a client of the gateway's REST API ({@link GatewayRestSession}).
 */
public interface GatewaySession extends AutoCloseable {

    /** Runs a statement (DDL, SET, INSERT) and waits until the gateway has answered it. */
    void execute(String sql);

    /** Runs a query and returns all its rows; meant for small, bounded results. */
    List<List<Object>> query(String sql);

    /** Sets each option in the session, as {@code SET 'key' = 'value'} statements. */
    default void set(Map<String, String> settings) {
        settings.forEach((key, value) -> execute("SET '" + key + "' = '" + value + "'"));
    }

    @Override
    void close();
}
