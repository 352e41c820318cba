package io.flinkinsight.client.collect;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway;

/** A job client that can also talk to the job's operator coordinators, as Flink's collect fetcher requires. */
public interface JobClientGateway extends JobClient, CoordinationRequestGateway {}
