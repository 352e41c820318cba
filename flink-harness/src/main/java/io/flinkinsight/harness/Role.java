package io.flinkinsight.harness;

import java.util.Objects;

/**
 * One kind of process the harness starts; names its log file and tells TaskManagers apart by index.
 */
public final class Role {

    public static final Role JOBMANAGER = new Role("jobmanager", "jobmanager");
    public static final Role SQL_GATEWAY = new Role("sql-gateway", "sql-gateway");

    /** The ZooKeeper server of a cluster with ZooKeeper high availability. */
    public static final Role ZOOKEEPER = new Role("zookeeper", "zookeeper");

    /** The first TaskManager, the only one in most tests. */
    public static final Role TASKMANAGER = taskManager(0);

    private final String name;
    private final String fileStem;

    private Role(String name, String fileStem) {
        this.name = name;
        this.fileStem = fileStem;
    }

    /**
     * The JobManager with the given 0-based index: {@link #JOBMANAGER} for 0, else a standby of a
     * cluster with high availability, whose log is {@code jobmanager-<index>.log}.
     */
    public static Role jobManager(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("JobManager index must be >= 0, was " + index);
        }
        return index == 0 ? JOBMANAGER : new Role("jobmanager", "jobmanager-" + index);
    }

    /** The TaskManager with the given 0-based index; its log is {@code taskmanager-<index>.log}. */
    public static Role taskManager(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("TaskManager index must be >= 0, was " + index);
        }
        return new Role("taskmanager", "taskmanager-" + index);
    }

    /**
     * The kind: {@code jobmanager}, {@code taskmanager}, {@code sql-gateway} or {@code zookeeper}.
     */
    public String name() {
        return name;
    }

    /** The log file name, e.g. {@code taskmanager-0.log}. */
    public String logFileName() {
        return fileStem + ".log";
    }

    /** The file that receives the process's stdout and stderr, e.g. {@code jobmanager.out}. */
    public String outFileName() {
        return fileStem + ".out";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Role other && fileStem.equals(other.fileStem);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fileStem);
    }

    @Override
    public String toString() {
        return fileStem;
    }
}
