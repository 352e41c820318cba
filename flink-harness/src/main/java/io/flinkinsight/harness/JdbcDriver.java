package io.flinkinsight.harness;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Flink's JDBC driver in its own class loader: the bundle carries Flink classes of its own that
 * must not meet the Flink classes on the classpath of the tests that use the harness. Loaded once
 * per JVM.
 */
final class JdbcDriver {

    /**
     * System property with the driver bundle, slf4j-api (and a binding) jars, separated by the path
     * separator.
     */
    static final String CLASSPATH_PROPERTY = "flink.insight.jdbc-classpath";

    static final String DRIVER_CLASS = "org.apache.flink.table.jdbc.FlinkDriver";

    private static volatile JdbcDriver instance;

    private final ClassLoader loader;
    private final Driver driver;

    private JdbcDriver(ClassLoader loader, Driver driver) {
        this.loader = loader;
        this.driver = driver;
    }

    static JdbcDriver get() {
        JdbcDriver local = instance;
        if (local == null) {
            synchronized (JdbcDriver.class) {
                local = instance;
                if (local == null) {
                    local = load(driverClasspath());
                    instance = local;
                }
            }
        }
        return local;
    }

    /**
     * Connects with the driver's class loader as the context class loader, which its ServiceLoaders
     * use.
     */
    Connection connect(String url, Properties properties) throws SQLException {
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(loader);
        try {
            Connection connection = driver.connect(url, properties);
            if (connection == null) {
                throw new SQLException("The Flink JDBC driver does not accept " + url);
            }
            return connection;
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    ClassLoader classLoader() {
        return loader;
    }

    private static JdbcDriver load(List<Path> jars) {
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(
                        "JDBC driver jar "
                                + jar
                                + " is missing; resolve it with"
                                + " mvn -pl flink-harness package (or set -D"
                                + CLASSPATH_PROPERTY
                                + ")");
            }
            try {
                urls.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        // Parent is the platform loader: java.sql is visible, nothing of the application classpath
        // is.
        URLClassLoader loader =
                new URLClassLoader(
                        "flink-jdbc-driver",
                        urls.toArray(URL[]::new),
                        ClassLoader.getPlatformClassLoader());
        try {
            Driver driver =
                    (Driver)
                            Class.forName(DRIVER_CLASS, true, loader)
                                    .getDeclaredConstructor()
                                    .newInstance();
            return new JdbcDriver(loader, driver);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot load " + DRIVER_CLASS + " from " + jars, e);
        }
    }

    /**
     * From {@value #CLASSPATH_PROPERTY}, else from the paths the build wrote into
     * harness.properties.
     */
    static List<Path> driverClasspath() {
        String configured = System.getProperty(CLASSPATH_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            List<Path> jars = new ArrayList<>();
            for (String part : configured.split(java.io.File.pathSeparator)) {
                jars.add(Path.of(part.trim()));
            }
            return jars;
        }
        return List.of(
                Path.of(HarnessProperties.get("jdbc.driver.jar")),
                Path.of(HarnessProperties.get("jdbc.slf4j.jar")),
                Path.of(HarnessProperties.get("jdbc.slf4j.binding.jar")));
    }
}
