package io.flinkinsight.plugin.durable;

import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobSettings;
import io.flinkinsight.plugin.store.statement.QuerySample;
import io.flinkinsight.plugin.store.statement.StatementsSnapshot;

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

    /**
     * The statements read back; throws when they do not parse or a statement, query or position
     * lacks what identifies it.
     */
    static StatementsSnapshot statements(byte[] json) throws IOException {
        StatementsSnapshot s = MAPPER.readValue(json, StatementsSnapshot.class);
        if (s.statements() == null || s.log() == null || s.read() == null) {
            throw new IOException("the statements lack their list, log or read positions");
        }
        for (StatementsSnapshot.Statement st : s.statements()) {
            if (st == null
                    || st.id() == null
                    || st.statement() == null
                    || st.e2e() == null
                    || st.clusterRun() == null
                    || st.parts() == null
                    || st.parts().containsValue(null)
                    || !whole(st.slowest())
                    || !whole(st.latest())) {
                throw new IOException("a statement lacks its id, text, histograms or queries");
            }
        }
        if (!whole(s.log())) {
            throw new IOException("a logged query lacks its statement");
        }
        for (StatementsSnapshot.FeedPosition p : s.read().values()) {
            if (p == null || p.instance() == null) {
                throw new IOException("a read position lacks its log's instance");
            }
        }
        return s;
    }

    private static boolean whole(java.util.List<QuerySample> queries) {
        if (queries == null) {
            return false;
        }
        for (QuerySample q : queries) {
            if (q == null
                    || q.statementId() == null
                    || q.statement() == null
                    || q.source() == null
                    || q.outcome() == null) {
                return false;
            }
        }
        return true;
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
        if (j.transitions().stream().anyMatch(t -> t == null || t.status() == null)
                || j.failures().contains(null)
                || j.vertices().containsKey(null)
                || j.vertices().containsValue(null)) {
            throw new IOException("a job's transitions, failures or vertices hold nothing");
        }
        return s;
    }
}
