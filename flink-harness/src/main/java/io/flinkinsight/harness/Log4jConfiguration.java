package io.flinkinsight.harness;

/**
 * The log4j2 properties every process shares; each writes to the file its {@code log.file} property
 * names.
 */
public final class Log4jConfiguration {

    /** Flink's scripts pass the same property; Flink's REST log endpoints read it too. */
    public static final String LOG_FILE_PROPERTY = "log.file";

    /**
     * Loggers (comma-separated names) that log at DEBUG in every process, e.g. {@code
     * -Dinsight.log.debug=io.flinkinsight.client.transport.KeepAliveRestClient} to see each REST
     * request the interactive client sends (scripts/requests-per-query.py reads them); none by
     * default.
     */
    public static final String DEBUG_LOGGERS_PROPERTY = "insight.log.debug";

    private Log4jConfiguration() {}

    /** Log4j2 properties close to flink-dist's log4j.properties, with a size bound on each file. */
    public static String properties() {
        StringBuilder debugLoggers = new StringBuilder();
        int n = 0;
        for (String name : System.getProperty(DEBUG_LOGGERS_PROPERTY, "").split(",")) {
            if (!name.isBlank()) {
                n++;
                debugLoggers
                        .append("logger.debug")
                        .append(n)
                        .append(".name = ")
                        .append(name.trim())
                        .append('\n')
                        .append("logger.debug")
                        .append(n)
                        .append(".level = DEBUG\n");
            }
        }
        return String.join(
                        "\n",
                        "# Written by the Flink Insight harness. One file per process: -D"
                                + LOG_FILE_PROPERTY
                                + "=<file>.",
                        "monitorInterval = 30",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = MainAppender",
                        "logger.pekko.name = org.apache.pekko",
                        "logger.pekko.level = INFO",
                        "logger.zookeeper.name = org.apache.zookeeper",
                        "logger.zookeeper.level = INFO",
                        "logger.shaded_zookeeper.name = org.apache.flink.shaded.zookeeper3",
                        "logger.shaded_zookeeper.level = INFO",
                        "logger.netty.name = org.jboss.netty.channel.DefaultChannelPipeline",
                        "logger.netty.level = OFF",
                        "appender.main.name = MainAppender",
                        "appender.main.type = RollingFile",
                        // Append, as flink-dist does: the RPC system's class loader opens a second
                        // logger context on the
                        // same file, which would truncate it otherwise. The harness deletes old
                        // logs before a start.
                        "appender.main.append = true",
                        "appender.main.fileName = ${sys:" + LOG_FILE_PROPERTY + "}",
                        "appender.main.filePattern = ${sys:" + LOG_FILE_PROPERTY + "}.%i",
                        "appender.main.layout.type = PatternLayout",
                        "appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
                        "appender.main.policies.type = Policies",
                        // A long demo must not fill the disk: keep at most two files of 100 MB per
                        // process.
                        "appender.main.policies.size.type = SizeBasedTriggeringPolicy",
                        "appender.main.policies.size.size = 100MB",
                        "appender.main.strategy.type = DefaultRolloverStrategy",
                        "appender.main.strategy.max = 1",
                        "")
                + debugLoggers;
    }
}
