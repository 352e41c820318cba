package io.flinkinsight.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The Flink 2.2 jars that {@code flink-dist-local} copied into {@code target/lib}, as an explicit classpath. */
public final class FlinkDistribution {

    /** System property that points at the lib folder, overriding the upward search. */
    public static final String LIB_PROPERTY = "flink.insight.flink-lib";

    static final String RELATIVE_LIB = "flink-dist-local/target/lib";

    private final Path libDir;
    private final List<Path> jars;

    private FlinkDistribution(Path libDir, List<Path> jars) {
        this.libDir = libDir;
        this.jars = jars;
    }

    /** Finds the lib folder from {@value #LIB_PROPERTY}, else upward from the working directory. */
    public static FlinkDistribution locate() {
        String configured = System.getProperty(LIB_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return at(Path.of(configured));
        }
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(RELATIVE_LIB);
            if (Files.isDirectory(candidate)) {
                return at(candidate);
            }
        }
        throw new IllegalStateException(
                "No Flink jars found: " + RELATIVE_LIB + " is in no parent of " + start
                        + " and -D" + LIB_PROPERTY + " is not set. Build them with:"
                        + " mvn -pl flink-dist-local package");
    }

    /** Uses the given lib folder; fails with the build command when it holds no Flink runtime jar. */
    public static FlinkDistribution at(Path libDir) {
        Path dir = libDir.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException(
                    "Flink lib folder " + dir + " does not exist. Build it with: mvn -pl flink-dist-local package");
        }
        List<Path> jars;
        try (Stream<Path> files = Files.list(dir)) {
            // Sorted, so every process gets the same, reproducible classpath.
            jars = files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
        boolean hasRuntime = jars.stream().anyMatch(p -> p.getFileName().toString().startsWith("flink-runtime-"));
        if (!hasRuntime) {
            throw new IllegalStateException(
                    "Flink lib folder " + dir + " holds no flink-runtime jar. Build it with:"
                            + " mvn -pl flink-dist-local package");
        }
        return new FlinkDistribution(dir, List.copyOf(jars));
    }

    public Path libDir() {
        return libDir;
    }

    /** The jars, sorted by file name. */
    public List<Path> jars() {
        return jars;
    }

    /** The jars followed by {@code extra}, joined with the platform's path separator. */
    public String classpath(List<Path> extra) {
        return Stream.concat(jars.stream(), extra.stream())
                .map(Path::toString)
                .collect(Collectors.joining(java.io.File.pathSeparator));
    }
}
