package io.flinkinsight.it;

import io.flinkinsight.harness.FlinkDistribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flink's REST routes as Flink itself declares them: every handler specification in the jars the
 * test cluster runs, instantiated by reflection, asked for its HTTP method and URL template. A
 * hand-written list would miss the route a new Flink release adds; this one cannot.
 */
final class FlinkRestRoutes {

    /**
     * What every routed handler's specification implements. Not {@code MessageHeaders}: the legacy
     * {@code YarnCancelJobTerminationHeaders} and the untyped log and stdout file headers implement
     * only this.
     */
    static final String SPECIFICATION =
            "org.apache.flink.runtime.rest.handler.RestHandlerSpecification";

    /**
     * The SQL Gateway's routes: its own REST endpoint serves them, never the JobManager the hub
     * proxies.
     */
    static final String GATEWAY_HEADERS =
            "org.apache.flink.table.gateway.rest.header.SqlGatewayMessageHeaders";

    /**
     * Routes every Flink 2.2 JobManager serves: a broken scan fails loudly instead of testing
     * nothing.
     */
    static final List<Route> MUST_CONTAIN =
            List.of(
                    new Route("GET", "/jobs/:jobid/yarn-cancel"),
                    new Route("GET", "/jobs/:jobid/yarn-stop"),
                    new Route("PATCH", "/jobs/:jobid"),
                    new Route("POST", "/jobs/:jobid/stop"),
                    new Route("DELETE", "/jars/:jarid"),
                    new Route("POST", "/jars/upload"));

    /**
     * One route: the HTTP method's name and the URL template, e.g. {@code GET
     * /jobs/:jobid/yarn-cancel}.
     */
    record Route(String method, String template) implements Comparable<Route> {

        @Override
        public int compareTo(Route other) {
            int byTemplate = template.compareTo(other.template);
            return byTemplate != 0 ? byTemplate : method.compareTo(other.method);
        }

        @Override
        public String toString() {
            return method + " " + template;
        }
    }

    private FlinkRestRoutes() {}

    /**
     * Scans the distribution the harness starts clusters from. Every jar is on the class loader
     * (headers refer to classes of other jars) and every jar is scanned: the JobManager serves the
     * routes of whichever jar declares them. The scan has no version dimension: a header registered
     * under several API versions is one route.
     */
    static SortedSet<Route> scan() {
        long start = System.nanoTime();
        List<Path> jars = FlinkDistribution.locate().jars();
        assertThat(jars)
                .as("Flink jars the JobManager runs")
                .anyMatch(p -> p.getFileName().toString().startsWith("flink-runtime-web-"))
                .anyMatch(p -> p.getFileName().toString().matches("flink-runtime-\\d.*\\.jar"));
        Map<String, ClassHeader> classes = classHeaders(jars);
        SortedSet<Route> routes = new TreeSet<>();
        int specificationClasses = 0;
        int gatewayClasses = 0;
        List<String> skipped = new ArrayList<>();
        // Parent: the platform loader, so no class of the test's own classpath (other Flink
        // versions) leaks in.
        try (URLClassLoader loader =
                new URLClassLoader(urls(jars), ClassLoader.getPlatformClassLoader())) {
            Class<?> specificationType = Class.forName(SPECIFICATION, false, loader);
            Class<?> gatewayType = load(GATEWAY_HEADERS, loader);
            Map<String, Boolean> implementing = new HashMap<>();
            for (ClassHeader header : classes.values()) {
                // Loading all ~33,000 classes takes 8 to 20 s on 2 cores; their headers name the
                // candidates in 1 to 2.
                if (header.isAbstract()
                        || !implementsSpecification(header.name(), classes, implementing)) {
                    continue;
                }
                Class<?> type = load(header.name(), loader);
                if (type == null || !specificationType.isAssignableFrom(type)) {
                    continue;
                }
                specificationClasses++;
                if (gatewayType != null && gatewayType.isAssignableFrom(type)) {
                    gatewayClasses++;
                    continue;
                }
                Object headers = instance(type);
                if (headers == null) {
                    skipped.add(type.getName());
                    continue;
                }
                routes.add(routeOf(headers));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read Flink's REST routes", e);
        }
        System.out.printf(
                "Flink REST routes: %d classes in %d jars, %d handler specifications, %d JobManager routes,"
                        + " %d SQL Gateway specifications left out, %d skipped (no getInstance() or no-arg constructor): %s"
                        + " (%d ms)%n",
                classes.size(),
                jars.size(),
                specificationClasses,
                routes.size(),
                gatewayClasses,
                skipped.size(),
                skipped,
                (System.nanoTime() - start) / 1_000_000);
        assertThat(routes).as("routes scanned from Flink's jars").containsAll(MUST_CONTAIN);
        return Collections.unmodifiableSortedSet(routes);
    }

    private static URL[] urls(List<Path> jars) throws MalformedURLException {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = jars.get(i).toUri().toURL();
        }
        return urls;
    }

    /**
     * Whether {@code name} reaches {@value #SPECIFICATION} through its superclasses and interfaces.
     */
    private static boolean implementsSpecification(
            String name, Map<String, ClassHeader> classes, Map<String, Boolean> memo) {
        if (name.equals(SPECIFICATION)) {
            return true;
        }
        Boolean known = memo.get(name);
        if (known != null) {
            return known;
        }
        memo.put(
                name,
                false); // Cycles cannot occur in valid class files; this guards against a broken
        // jar.
        ClassHeader header = classes.get(name);
        boolean result = false;
        if (header != null) {
            result =
                    header.superName() != null
                            && implementsSpecification(header.superName(), classes, memo);
            for (String type : header.interfaces()) {
                result = result || implementsSpecification(type, classes, memo);
            }
        }
        memo.put(name, result);
        return result;
    }

    /**
     * The header of every class entry, by class name; the first jar wins, as on the class loader.
     */
    private static Map<String, ClassHeader> classHeaders(List<Path> jars) {
        Map<String, ClassHeader> classes = new HashMap<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                Enumeration<JarEntry> entries = file.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    // Multi-release copies and module descriptors are not classes of their own.
                    if (!name.endsWith(".class")
                            || name.startsWith("META-INF/")
                            || name.endsWith("module-info.class")) {
                        continue;
                    }
                    try (InputStream in = file.getInputStream(entry)) {
                        ClassHeader header = ClassHeader.parse(in.readAllBytes());
                        if (header != null) {
                            classes.putIfAbsent(header.name(), header);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + jar, e);
            }
        }
        return classes;
    }

    /**
     * The class without running its static initialiser, or null when it cannot link (optional
     * dependencies).
     */
    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /**
     * Through a static no-arg {@code getInstance()}, else a no-arg constructor; null when it has
     * neither.
     */
    private static Object instance(Class<?> type) throws ReflectiveOperationException {
        try {
            Method getInstance = type.getDeclaredMethod("getInstance");
            if (Modifier.isStatic(getInstance.getModifiers())) {
                getInstance.setAccessible(true);
                return getInstance.invoke(null);
            }
        } catch (NoSuchMethodException e) {
            // Try the constructor.
        }
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Route routeOf(Object headers) throws ReflectiveOperationException {
        Class<?> api = Class.forName(SPECIFICATION, false, headers.getClass().getClassLoader());
        // Through the interface's methods: the implementing class may be package-private.
        Object method = api.getMethod("getHttpMethod").invoke(headers);
        String template = (String) api.getMethod("getTargetRestEndpointURL").invoke(headers);
        return new Route(((Enum<?>) method).name(), template);
    }

    /**
     * What a class file says about its place in the type hierarchy (JVMS 4.1), read without loading
     * the class.
     *
     * @param name binary name with dots; {@code superName} null for {@code java.lang.Object} and
     *     module descriptors
     */
    record ClassHeader(String name, String superName, List<String> interfaces, int accessFlags) {

        private static final int ACC_INTERFACE = 0x0200;
        private static final int ACC_ABSTRACT = 0x0400;

        boolean isAbstract() {
            return (accessFlags & (ACC_INTERFACE | ACC_ABSTRACT)) != 0;
        }

        /** The header, or null when the bytes are not a class file this parser knows. */
        static ClassHeader parse(byte[] bytes) {
            try {
                ByteBuffer in = ByteBuffer.wrap(bytes);
                if (in.getInt() != 0xCAFEBABE) {
                    return null;
                }
                in.getInt(); // minor and major version
                int count = in.getShort() & 0xFFFF;
                String[] utf8 = new String[count];
                int[] classNameIndex = new int[count];
                for (int i = 1; i < count; i++) {
                    int tag = in.get();
                    switch (tag) {
                        case 1 -> {
                            byte[] text = new byte[in.getShort() & 0xFFFF];
                            in.get(text);
                            // Modified UTF-8; class names of Flink's jars are ASCII, so plain UTF-8
                            // reads them alike.
                            utf8[i] = new String(text, StandardCharsets.UTF_8);
                        }
                        case 7 -> classNameIndex[i] = in.getShort() & 0xFFFF;
                        case 8, 16, 19, 20 -> in.position(in.position() + 2);
                        case 15 -> in.position(in.position() + 3);
                        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.position(in.position() + 4);
                        case 5, 6 -> {
                            in.position(in.position() + 8);
                            i++; // Longs and doubles take two entries.
                        }
                        default -> {
                            return null;
                        }
                    }
                }
                int flags = in.getShort() & 0xFFFF;
                String name = className(utf8, classNameIndex, in.getShort() & 0xFFFF);
                String superName = className(utf8, classNameIndex, in.getShort() & 0xFFFF);
                List<String> interfaces = new ArrayList<>();
                for (int n = in.getShort() & 0xFFFF; n > 0; n--) {
                    interfaces.add(className(utf8, classNameIndex, in.getShort() & 0xFFFF));
                }
                return name == null ? null : new ClassHeader(name, superName, interfaces, flags);
            } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
                return null;
            }
        }

        private static String className(String[] utf8, int[] classNameIndex, int index) {
            if (index == 0) {
                return null;
            }
            String internal = utf8[classNameIndex[index]];
            return internal == null ? null : internal.replace('/', '.');
        }
    }
}
