/** p50/p99 of a latency in ms; null until reported. */
export interface Quantiles {
  readonly p50: number | null;
  readonly p99: number | null;
}

/** `GET /api/v1/client`: the interactive client's figures, summed over client processes. */
export interface ClientFigures {
  /** False until an interactive client has reported; then {@link hint} says how to install one. */
  readonly available: boolean;
  readonly hint: string | null;
  readonly pool: {
    readonly requests: number;
    readonly hits: number;
    readonly misses: number;
    readonly hitRate: number | null;
    readonly size: number;
    readonly evictions: number;
  };
  readonly channels: {
    readonly opened: number;
    readonly reused: number;
    readonly reuseRatio: number | null;
    readonly inFlight: number;
    readonly requestLatencyMs: Quantiles;
    /** REST requests to the JobManager sent for queries; optional: hubs before it have none. */
    readonly queryRequests?: number;
    /** Median REST requests per ended query (the client's histogram), else queryRequests / queries ended. */
    readonly requestsPerQuery?: number | null;
    /** The client's requests-per-query histogram. */
    readonly requestsPerQueryQuantiles?: Quantiles;
  };
  readonly collect: {
    readonly requests: number;
    readonly retries: number;
    /** Median collect retries per query (from the client's histogram), else retries / queries submitted. */
    readonly retriesPerQuery: number | null;
    /** The client's retries-per-query histogram; optional: hubs before it have none. */
    readonly retriesPerQueryQuantiles?: Quantiles;
  };
  readonly queries: {
    readonly submitted: number;
    readonly succeeded: number;
    readonly failed: number;
    /** Queries waiting for a place under the client's cap on queries in flight; optional: hubs before it have none. */
    readonly waiting?: number;
    readonly e2eLatencyMs: Quantiles;
    /** Wait for that place, part of submit; optional: hubs before it have none. */
    readonly admissionWaitMs?: Quantiles;
    /** p50 of each phase of a query's end-to-end latency. */
    readonly breakdownMs: {
      readonly submit: number | null;
      /** Accepted by the JobManager → RUNNING; optional: hubs before it have none. */
      readonly jobStartWait?: number | null;
      readonly clusterRun: number | null;
      readonly resultFetch: number | null;
    };
    /** p99 of each phase; optional: hubs before it have none. */
    readonly breakdownP99Ms?: {
      readonly submit: number | null;
      readonly jobStartWait: number | null;
      readonly clusterRun: number | null;
      readonly resultFetch: number | null;
    };
  };
}
