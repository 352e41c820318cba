package io.flinkinsight.plugin.versions;

import io.flinkinsight.common.OptionRange;
import io.flinkinsight.plugin.FlinkCapabilities;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The capability probes and the checkpoint path against the real API jars (flink-core,
 * flink-core-api, flink-metrics-core) of each Flink the plugin supports, resolved from Maven
 * Central into {@code target/flink-versions/<version>/} by the build: the plugin's classes are
 * loaded beside one version's jars only, as Flink's plugin class loader would.
 */
class FlinkVersionsApiTest {

    private static final Path VERSIONS = Path.of("target", "flink-versions");

    @SuppressWarnings("unchecked")
    @ParameterizedTest(name = "Flink {0}")
    @CsvSource({
        // version, Span.getChildren, span detail level, event reporter API, built-in events, tasks
        // stored
        "1.20.3, false, false, false, false, 0",
        "2.0.0,  false, false, false, false, 0",
        "2.1.1,  false, false, true,  false, 0",
        "2.2.0,  true,  true,  true,  true,  1",
        "2.3.0,  true,  true,  true,  true,  1",
    })
    void probesWhatTheVersionGivesAndStoresItsCheckpointSpans(
            String version,
            boolean children,
            boolean detailLevel,
            boolean eventReporters,
            boolean builtInEvents,
            int tasks)
            throws Exception {
        Map<String, Object> seen = onVersion(version);

        // no flink-runtime here: the version comes from flink-core's manifest
        assertThat(seen.get("flinkVersion")).isEqualTo(version);
        assertThat(seen.get("spanChildren")).isEqualTo(children);
        assertThat(seen.get("spanDetailLevel")).isEqualTo(detailLevel);
        assertThat(seen.get("eventReporters")).isEqualTo(eventReporters);
        assertThat(seen.get("builtInEvents")).isEqualTo(builtInEvents);
        assertThat(seen.get("storedCheckpointId")).isEqualTo(7L);
        assertThat(seen.get("storedCheckpointedSize")).isEqualTo(1024L);
        assertThat(seen.get("storedTasks")).isEqualTo(tasks);
        if (!children) {
            assertThat((List<String>) seen.get("missing"))
                    .contains("checkpoint-phase-figures", "checkpoint-task-spans", "job-events");
        } else {
            assertThat((List<String>) seen.get("missing")).isEmpty();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> onVersion(String version) throws Exception {
        Path jars = VERSIONS.resolve(version);
        assertThat(jars)
                .as("jars of Flink %s, copied by the build's flink-versions-api execution", version)
                .isDirectory();
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> files = Files.list(jars)) {
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).toList()) {
                urls.add(jar.toUri().toURL());
            }
        }
        urls.add(location(FlinkCapabilities.class));
        urls.add(location(OnFlinkVersion.class));
        urls.add(location(OptionRange.class)); // insight-common, relocated into the plugin's jar
        try (VersionClassLoader loader =
                new VersionClassLoader(urls, FlinkVersionsApiTest.class.getClassLoader())) {
            Class<?> probe = loader.loadClass(OnFlinkVersion.class.getName());
            assertThat(probe.getClassLoader()).isSameAs(loader);
            return (Map<String, Object>) probe.getMethod("probeAndStoreACheckpoint").invoke(null);
        }
    }

    private static URL location(Class<?> type) throws IOException, URISyntaxException {
        return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toURI()
                .toURL();
    }

    /**
     * Loads Flink's and the plugin's classes from its own jars and directories only (never from the
     * test's class path, which holds the build's Flink), everything else (JDK, SLF4J) from the
     * parent.
     */
    private static final class VersionClassLoader extends URLClassLoader {

        VersionClassLoader(List<URL> urls, ClassLoader parent) {
            super(urls.toArray(URL[]::new), parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("org.apache.flink.") && !name.startsWith("io.flinkinsight.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
