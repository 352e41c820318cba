package io.flinkinsight.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One JVM the harness started, with the files it writes; stops only itself and its descendants. */
public final class FlinkProcess {

    private final Role role;
    private final Process process;
    private final Path logFile;
    private final Path outFile;
    private volatile boolean paused;

    FlinkProcess(Role role, Process process, Path logFile, Path outFile) {
        this.role = role;
        this.process = process;
        this.logFile = logFile;
        this.outFile = outFile;
    }

    public Role role() {
        return role;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The log4j file of the process. */
    public Path logFile() {
        return logFile;
    }

    /** Stdout and stderr of the JVM: start failures before log4j is up land here. */
    public Path outFile() {
        return outFile;
    }

    /** Exit code, or null while it runs. */
    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** The number of threads the process has now, from {@code /proc/<pid>/status} (Linux). */
    public int threadCount() {
        Path status = Path.of("/proc", Long.toString(pid()), "status");
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.UTF_8)) {
                if (line.startsWith("Threads:")) {
                    return Integer.parseInt(line.substring("Threads:".length()).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read " + status + " (has " + this + " exited?)", e);
        }
        throw new IllegalStateException("No Threads line in " + status);
    }

    /**
     * SIGKILL to the process and its descendants, as a crash: no shutdown hook runs. Waits until
     * they are gone.
     */
    void kill(Duration timeout) {
        ProcessHandle handle = process.toHandle();
        List<ProcessHandle> handles = new ArrayList<>(handle.descendants().toList());
        handles.add(handle);
        handles.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : handles) {
            try {
                h.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException(
                        "pid " + h.pid() + " of " + this + " survived SIGKILL for " + timeout, e);
            }
        }
    }

    /**
     * SIGTERM to the process, as an operator's stop or a Kubernetes pod's deletion: Flink's
     * shutdown hooks run (its reporters close). Waits until it is gone; SIGKILL after {@code
     * timeout}.
     */
    void terminate(Duration timeout) {
        process.destroy();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(timeout);
                throw new IllegalStateException(
                        this + " did not stop within " + timeout + " of SIGTERM");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while stopping " + this, e);
        }
    }

    /** SIGSTOP to the process (not its descendants): it stops running until {@link #resume()}. */
    void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() {
        signal("CONT");
        paused = false;
    }

    /** Whether the harness paused it and has not resumed it yet. */
    public boolean isPaused() {
        return paused && isAlive();
    }

    /** Java has no API for these signals: the {@code kill} command sends them, to this pid only. */
    private void signal(String name) {
        if (!isAlive()) {
            throw new IllegalStateException(this + " is not running: cannot send SIG" + name);
        }
        try {
            Process kill =
                    new ProcessBuilder("kill", "-" + name, Long.toString(pid()))
                            .redirectErrorStream(true)
                            .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException(
                        "kill -" + name + " " + pid() + " did not return in 10 s");
            }
            if (kill.exitValue() != 0) {
                throw new IllegalStateException(
                        "kill -"
                                + name
                                + " "
                                + pid()
                                + " exited with "
                                + kill.exitValue()
                                + ": "
                                + new String(
                                        kill.getInputStream().readAllBytes(),
                                        StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "Interrupted while sending SIG" + name + " to " + this, e);
        }
    }

    /** The tail of the log and of the out file, for error messages. */
    public String describeTail(int lines) {
        return "---- "
                + role
                + " (pid "
                + pid()
                + ", "
                + (isAlive() ? "running" : "exited " + exitCode())
                + ")"
                + "\n---- tail of "
                + logFile
                + ":\n"
                + LogFiles.tail(logFile, lines)
                + "\n---- tail of "
                + outFile
                + ":\n"
                + LogFiles.tail(outFile, lines);
    }

    /**
     * Stops the processes (and their descendants) together: SIGTERM first so Flink's shutdown hooks
     * clean up, then, for whatever still runs when {@code grace} is over, SIGKILL. Returns the pids
     * that were still alive even then.
     */
    static List<Long> stopAll(List<FlinkProcess> processes, Duration grace) {
        List<ProcessHandle> handles = new ArrayList<>();
        for (FlinkProcess p : processes) {
            if (p.isPaused()) {
                try {
                    // a stopped process would hold its SIGTERM until the grace is over
                    p.resume();
                } catch (RuntimeException e) {
                    // SIGKILL below stops it anyway
                }
            }
            ProcessHandle handle = p.process.toHandle();
            // Descendants are collected before the parent dies, when they can still be found.
            handle.descendants().forEach(handles::add);
            handles.add(handle);
        }
        handles.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle handle : handles) {
            long left = Math.max(0, deadline - System.nanoTime());
            try {
                handle.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                // Timed out or interrupted: the forcible pass below handles it.
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        List<Long> survivors = new ArrayList<>();
        for (ProcessHandle handle : handles) {
            if (handle.isAlive()) {
                handle.destroyForcibly();
                try {
                    handle.onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (handle.isAlive()) {
                    survivors.add(handle.pid());
                }
            }
        }
        return survivors;
    }

    @Override
    public String toString() {
        return role + "(pid " + pid() + ")";
    }
}
