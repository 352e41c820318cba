package io.flinkinsight.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** JVM flags every Flink process gets. */
public final class JvmOptions {

    /**
     * Java 17 module flags of flink-dist's default {@code env.java.opts.all} (flink-dist's
     * config.yaml): Kryo, the planner's code generation and Flink's reflection need these packages
     * open.
     */
    public static final List<String> JAVA_17_MODULE_FLAGS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private JvmOptions() {}

    /**
     * The JVM flags Flink's start scripts take from the configuration for a process of the kind
     * {@code roleName} ({@link Role#name()}: {@code jobmanager}, {@code taskmanager}, {@code
     * sql-gateway}): {@code env.java.opts.all}, then {@code env.java.opts.<roleName>}, split at
     * whitespace. The harness computes the JVM command itself, so it applies them as the scripts
     * would.
     */
    public static List<String> fromConfig(Map<String, String> config, String roleName) {
        List<String> flags = new ArrayList<>();
        for (String key : List.of("env.java.opts.all", "env.java.opts." + roleName)) {
            String value = config.get(key);
            if (value != null && !value.isBlank()) {
                flags.addAll(List.of(value.trim().split("\\s+")));
            }
        }
        return flags;
    }

    /** The {@code java} launcher of the JVM running the harness. */
    public static String javaExecutable() {
        return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
