package io.flinkinsight.plugin.durable;

import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobSettings;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Checkpoints and jobs as JSON in the hub's files: their records' components only (not the methods
 * that derive from them), and what a newer plugin added is ignored when an older one reads it.
 */
final class RecordJson {

    /** A job with the settings the hub read for it. */
    record StoredJob(JobRecord job, JobSettings settings) {}

    private static final ObjectMapper MAPPER =
            new ObjectMapper()
                    .setVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
                    .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
                    .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private RecordJson() {}

    static byte[] write(Object record) {
        try {
            return MAPPER.writeValueAsBytes(record);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A checkpoint read back; throws when it does not parse or lacks what identifies it. */
    static CheckpointRecord checkpoint(byte[] json) throws IOException {
        CheckpointRecord c = MAPPER.readValue(json, CheckpointRecord.class);
        if (c.jobId() == null || c.status() == null || c.tasks() == null) {
            throw new IOException("a checkpoint lacks its job, status or tasks");
        }
        return c;
    }

    /** A job read back; throws when it does not parse or lacks what identifies it. */
    static StoredJob job(byte[] json) throws IOException {
        StoredJob s = MAPPER.readValue(json, StoredJob.class);
        JobRecord j = s.job();
        if (j == null
                || j.jobId() == null
                || j.transitions() == null
                || j.failures() == null
                || j.vertices() == null) {
            throw new IOException("a job lacks its id, transitions, failures or vertices");
        }
        return s;
    }
}
