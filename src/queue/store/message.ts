// What the queue keeps of a message: everything a delivery, a retry, a callback or the
// management API needs, in a JSON-friendly shape (the body as base64) so one record is one
// log frame.

import { randomBytes } from 'node:crypto';
import type { FlowControlSetting } from './gate-records.js';

/** Settings of a message to be made later: a callback's, from Upstash-Callback-* headers. */
export interface MessageSettings {
  method?: string;
  retries?: number;
  timeoutMs?: number;
  delayMs?: number;
  /** Upstash-Retry-Delay: an expression over `retried` (delivery/retry-delay.ts). */
  retryDelay?: string;
  /** Headers forwarded to the destination (Upstash-Callback-Forward-*). */
  headers: Record<string, string>;
}

export interface FollowUp {
  url: string;
  settings: MessageSettings;
}

export interface QueueMessage {
  id: string;
  url: string;
  method: string;
  /** Headers forwarded to the destination, by lower-case name. */
  headers: Record<string, string>;
  /** The body, base64. */
  body: string;
  createdAt: number;
  /** When the next attempt is due (ms). */
  notBefore: number;
  /** Retries allowed after the first attempt. */
  retries: number;
  /** Attempts made so far that failed. */
  retried: number;
  timeoutMs: number | null;
  callback?: FollowUp;
  failureCallback?: FollowUp;
  queueName?: string;
  flowControl?: FlowControlSetting;
  labels?: string[];
  callerIp: string;
  topicName?: string;
  endpointName?: string;
  scheduleId?: string;
  /** Set on a callback or failure-callback message: it has no callbacks of its own. */
  origin?: 'callback' | 'failureCallback';
  /** Upstash-Retry-Delay: an expression over `retried` replacing the back-off (delivery/retry-delay.ts). */
  retryDelay?: string;
  /** Upstash-Redact-Fields: what the API and logs show only as a hash (store/redaction.ts). */
  redact?: Redaction;
  /** Set on a message of a workflow run (issue 10): which run, and what the message is to it. */
  workflow?: WorkflowTag;
}

/**
 * A run message's part in its run: the trigger (its body is the initial payload, `settings` the
 * trigger's raw Upstash-* headers re-applied to every later message of the run), a step result,
 * the failure callback made when the run failed, a context.call request to a third party
 * (`settings`: its Upstash-Callback-Workflow-* headers) or the callback bringing its answer.
 */
export interface WorkflowTag {
  runId: string;
  kind: 'trigger' | 'step' | 'failure' | 'call' | 'callback';
  settings?: Record<string, string>;
  /** On the trigger of a run started by context.invoke: the run to give its result to. */
  invoker?: Invoker;
  /**
   * On a trigger sent without the workflow protocol (POST /v2/trigger, another SDK): its delivery
   * says Upstash-Workflow-Unknown-Sdk, and the endpoint triggers the run again in its own way.
   */
  unknownSdk?: true;
  /** On that second trigger (upstash-workflow-trigger-by-sdk): it becomes the run's trigger. */
  retrigger?: true;
}

/** The run that invoked another, and its invoke step (the result step is built from it). */
export interface Invoker {
  workflowRunId: string;
  workflowRunCreatedAt: number;
  workflowUrl: string;
  step: Record<string, unknown>;
}

/** Parts of a message shown as `REDACTED:<sha256>`; they are still delivered as they are. */
export interface Redaction {
  body?: true;
  /** Every header, or these (lower-case names). */
  headers?: true | string[];
}

/** What the destination answered on the last attempt; status 0 when it never answered. */
export interface DeliveryResponse {
  status: number;
  headers: Record<string, string>;
  /** The body, base64, cut at the service's maximum message size. */
  body: string;
  /** Why the attempt failed when there was no answer (timeout, refused connection). */
  error?: string;
}

export interface DlqEntry {
  dlqId: string;
  message: QueueMessage;
  response: DeliveryResponse;
  failedAt: number;
}

/** Ids are url-safe, so they go into paths as they are. */
export const newMessageId = () => `msg_${randomBytes(18).toString('base64url')}`;
export const newDlqId = () => `dlq_${randomBytes(18).toString('base64url')}`;

/** A message about to be accepted, with its deduplication key when it has one. */
export interface Draft {
  message: QueueMessage;
  dedupKey?: string;
}
