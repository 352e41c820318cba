import { ClientGroups, ClientHistoryGroups } from './client-figures.generated';

export type { Quantiles, QuantileHistory } from './client-figures.generated';

/**
 * `GET /api/v1/client`: the interactive client's figures, summed over client processes, one section per group of
 * the client's figures (types generated from its client-figures.json); ratios are computed by the hub.
 */
export interface ClientFigures extends ClientGroups {
  /** False until an interactive client has reported; then {@link hint} says how to install one. */
  readonly available: boolean;
  readonly hint: string | null;
  /** With a time window (`from`, `step`): the figures over time, as the client view charts them. */
  readonly history?: ClientHistoryGroups;
}
