// The durable settings of the delivery gates: a queue's (its parallelism, whether it is paused)
// and a flow-control key's (the parallelism, rate and period its latest message asked for, or
// the ones pinned, and whether it is paused). What is in flight and the rate counters are not
// kept: they start empty after a restart.

/**
 * A name the endpoints take as one path segment: a queue's (client.queue({queueName}),
 * /v2/queues/{name}) and a workflow run's id (/v2/workflows/runs/{id}).
 */
export const isPathName = (name: string) => name !== '' && !name.includes('/');

export interface QueueRecord {
  name: string;
  parallelism: number;
  paused: boolean;
  createdAt: number;
  updatedAt: number;
}

/** What a message asks of its flow-control key (Upstash-Flow-Control-Key / -Value); 0 means no limit. */
export interface FlowControlSetting {
  key: string;
  parallelism: number;
  rate: number;
  periodMs: number;
}

export interface FlowRecord extends FlowControlSetting {
  paused: boolean;
  /** While pinned, messages do not change parallelism (or rate and period). */
  pinnedParallelism: boolean;
  pinnedRate: boolean;
}

/** A queue made by an enqueue to a name not seen before, or an upsert without parallelism. */
export const DEFAULT_QUEUE_PARALLELISM = 1;
/** The rate period when a message names none. */
export const DEFAULT_RATE_PERIOD_MS = 1000;
