package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.Attributes;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parameters of {@code GET /api/v1/compare} once checked: either {@code jobs=<id>,<id>[,...]}
 * (2–4 distinct job ids, lower-cased) or {@code job=<id>&ranges=<from>-<to>,<from>-<to>[,...]} (one
 * job in 2–4 time ranges, epoch milliseconds, {@code from < to}). Anything else is a {@link
 * BadRequestException} naming the accepted form.
 *
 * @param mode {@code jobs} or {@code ranges}
 * @param jobIds the jobs compared; the one job in the ranges form
 * @param ranges the ranges compared; none in the jobs form
 */
record CompareQuery(String mode, List<String> jobIds, List<Range> ranges) {

    static final int MIN_COLUMNS = 2;
    static final int MAX_COLUMNS = 4;

    static final String JOBS_FORM =
            "parameter 'jobs' must be 2 to 4 distinct job ids (32 hex characters each)"
                    + " separated by commas, e.g. jobs=<id>,<id>";
    static final String RANGES_FORM =
            "parameter 'ranges' must be 2 to 4 ranges <from>-<to> in epoch milliseconds"
                    + " with from < to, separated by commas, e.g. ranges=1700000000000-1700000600000,"
                    + "1700000600000-1700001200000";
    static final String EITHER_FORM =
            "give either 'jobs' (2 to 4 job ids separated by commas) or 'job' (one job id)"
                    + " with 'ranges' (2 to 4 ranges <from>-<to> in epoch milliseconds)";

    private static final Pattern RANGE = Pattern.compile("(\\d{1,15})-(\\d{1,15})");

    /** A time range in epoch milliseconds, {@code from < to}. */
    record Range(long from, long to) {}

    /** Whether the hub knows a job: throws, naming {@code parameter}, when it does not. */
    @FunctionalInterface
    interface KnownJobs {
        void require(String jobId, String parameter) throws BadRequestException;
    }

    /**
     * Checks the parameters.
     *
     * @param known asked for each job once its id is read, before the ranges are (so a request for
     *     a job the hub does not know says so first)
     */
    static CompareQuery parse(QueryParameters query, KnownJobs known) throws BadRequestException {
        Optional<String> jobList = query.get("jobs");
        Optional<String> job = query.get("job");
        Optional<String> ranges = query.get("ranges");
        if (jobList.isPresent() == job.isPresent() || jobList.isPresent() && ranges.isPresent()) {
            throw new BadRequestException(EITHER_FORM);
        }
        if (jobList.isPresent()) {
            List<String> ids = parseJobs(jobList.get());
            for (String id : ids) {
                known.require(id, "jobs");
            }
            return new CompareQuery("jobs", ids, List.of());
        }
        String jobId = parseJob(job.get());
        if (ranges.isEmpty()) {
            throw new BadRequestException(RANGES_FORM);
        }
        known.require(jobId, "job");
        return new CompareQuery("ranges", List.of(jobId), parseRanges(ranges.get()));
    }

    private static List<String> parseJobs(String raw) throws BadRequestException {
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        for (String part : raw.split(",", -1)) {
            String id = part.trim();
            if (!Attributes.isJobId(id) || !ids.add(id.toLowerCase(Locale.ROOT))) {
                throw new BadRequestException(JOBS_FORM);
            }
        }
        if (ids.size() < MIN_COLUMNS || ids.size() > MAX_COLUMNS) {
            throw new BadRequestException(JOBS_FORM);
        }
        return List.copyOf(ids);
    }

    private static String parseJob(String raw) throws BadRequestException {
        String id = raw.trim();
        if (!Attributes.isJobId(id)) {
            throw new BadRequestException("parameter 'job' must be a job id of 32 hex characters");
        }
        return id.toLowerCase(Locale.ROOT);
    }

    private static List<Range> parseRanges(String raw) throws BadRequestException {
        List<Range> out = new ArrayList<>();
        for (String part : raw.split(",", -1)) {
            Matcher m = RANGE.matcher(part.trim());
            if (!m.matches()) {
                throw new BadRequestException(RANGES_FORM);
            }
            long from = Long.parseLong(m.group(1));
            long to = Long.parseLong(m.group(2));
            if (from >= to) {
                throw new BadRequestException(RANGES_FORM);
            }
            out.add(new Range(from, to));
        }
        if (out.size() < MIN_COLUMNS || out.size() > MAX_COLUMNS) {
            throw new BadRequestException(RANGES_FORM);
        }
        return out;
    }
}
