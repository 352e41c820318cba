package io.flinkinsight.harness;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;

/**
 * One JDBC connection to the SQL Gateway, i.e. one gateway session: run statements, read small
 * results.
 */
public final class SqlSession implements GatewaySession {

    private final Connection connection;
    private final ClassLoader driverLoader;

    private SqlSession(Connection connection, ClassLoader driverLoader) {
        this.connection = connection;
        this.driverLoader = driverLoader;
    }

    /** Opens a session on {@code jdbc:flink://host:port}. */
    public static SqlSession open(String jdbcUrl) {
        return open(jdbcUrl, new Properties());
    }

    /**
     * Opens a session; {@code properties} become session configuration, as with the driver itself.
     */
    public static SqlSession open(String jdbcUrl, Properties properties) {
        JdbcDriver driver = JdbcDriver.get();
        try {
            return new SqlSession(driver.connect(jdbcUrl, properties), driver.classLoader());
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Cannot open a JDBC session on " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    /** Runs a statement (DDL, SET, INSERT: an INSERT returns once the job is submitted). */
    @Override
    public void execute(String sql) {
        withDriverLoader(
                () -> {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute(sql);
                    }
                    return null;
                },
                sql);
    }

    @Override
    public List<List<Object>> query(String sql) {
        return withDriverLoader(
                () -> {
                    try (Statement statement = connection.createStatement();
                            ResultSet result = statement.executeQuery(sql)) {
                        return readAll(result);
                    }
                },
                sql);
    }

    /**
     * Runs a query, streaming or not, and hands each row to {@code onRow} as the driver reads it,
     * until the result ends or {@code onRow} returns false; closing the statement then cancels the
     * query. Returns the rows read.
     */
    public long stream(String sql, Predicate<List<Object>> onRow) {
        return withDriverLoader(
                () -> {
                    long read = 0;
                    try (Statement statement = connection.createStatement();
                            ResultSet result = statement.executeQuery(sql)) {
                        int columns = result.getMetaData().getColumnCount();
                        while (result.next()) {
                            List<Object> row = new ArrayList<>(columns);
                            for (int i = 1; i <= columns; i++) {
                                row.add(result.getObject(i));
                            }
                            read++;
                            if (!onRow.test(row)) {
                                break;
                            }
                        }
                    }
                    return read;
                },
                sql);
    }

    /**
     * Runs any statement and returns the rows it answers with: SHOW JOBS, DESCRIBE JOB, STOP JOB,
     * an INSERT's job id; none when it answers without content. The driver's {@code executeQuery}
     * refuses all but queries.
     */
    public List<List<Object>> rows(String sql) {
        return withDriverLoader(
                () -> {
                    try (Statement statement = connection.createStatement()) {
                        if (!statement.execute(sql)) {
                            return List.of();
                        }
                        try (ResultSet result = statement.getResultSet()) {
                            return readAll(result);
                        }
                    }
                },
                sql);
    }

    private static List<List<Object>> readAll(ResultSet result) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        int columns = result.getMetaData().getColumnCount();
        while (result.next()) {
            List<Object> row = new ArrayList<>(columns);
            for (int i = 1; i <= columns; i++) {
                row.add(result.getObject(i));
            }
            rows.add(row);
        }
        return rows;
    }

    @Override
    public void close() {
        withDriverLoader(
                () -> {
                    connection.close();
                    return null;
                },
                "close");
    }

    private interface JdbcCall<T> {
        T call() throws SQLException;
    }

    /** The driver's own ServiceLoader lookups use the context class loader. */
    private <T> T withDriverLoader(JdbcCall<T> call, String sql) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(driverLoader);
        try {
            return call.call();
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed: " + sql + ": " + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
