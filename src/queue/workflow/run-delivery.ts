// What a workflow run's messages look like on the wire (issue 10). The store keeps each step's
// own body once; at attempt time a trigger or step message is delivered with the body the
// library expects: the JSON array [initial payload, step 1, ..., this message's step], each
// entry {messageId, body (base64), callType}, cut right after the delivered message's own step
// (parallel branches read the last entry; a retry gets the same prefix). The headers add the run
// id, its creation time and the protocol version, which tell the library this is a continuation,
// not a new run. The failure callback of a failed run is the queue's ordinary failure callback,
// completed with the workflow headers the trigger asked for and the run's id, creation time,
// URL and initial payload. Callbacks into a run (a context.call's answer, the failure callback)
// carry the headers the trigger forwarded, as every step does, under their own.
// A trigger answered 2xx without the protocol's Upstash-Workflow-Sdk-Version reached something
// that is not a workflow endpoint: the run fails at once, with the text the library's trigger
// detection (WF_DetectTrigger) reads.

import type { EventLog } from '../store/event-log.js';
import type { Outcome } from '../delivery/attempt.js';
import type { QueueMessage } from '../store/message.js';
import type { QueueStore } from '../store/queue-store.js';
import { forwardedHeaders, type RunRecord } from './run.js';

export interface RawStep {
  messageId: string;
  body: string;
  callType: 'step';
}

const PROTOCOL_VERSION = '1';
const FAILURE_WORKFLOW = 'upstash-failure-callback-workflow-';
const CALLBACK_WORKFLOW = 'upstash-callback-workflow-';
export const NON_WORKFLOW_DESTINATION = 'detected a non-workflow destination for trigger/invoke. make sure you are sending the request to the correct endpoint';

/** The run's step array up to and including the entry of message `upTo` (all of it when absent). */
export function rawSteps(run: RunRecord, upTo?: string): RawStep[] {
  const out: RawStep[] = [{ messageId: run.triggerMessageId, body: run.initialBody, callType: 'step' }];
  if (upTo === run.triggerMessageId) return out;
  for (const s of run.steps) {
    out.push({ messageId: s.messageId, body: s.body, callType: 'step' });
    if (s.messageId === upTo) break;
  }
  return out;
}

export class RunDelivery {
  constructor(
    private readonly store: QueueStore,
    private readonly events: EventLog,
  ) {}

  /** Finishes, undelivered, a trigger or step message whose run has ended; says whether it did. */
  drop(m: QueueMessage): boolean {
    const tag = m.workflow;
    if (tag === undefined || tag.kind === 'failure' || this.store.runs.active(tag.runId) !== undefined) return false;
    this.store.finish(m.id);
    this.events.add('CANCELED', m);
    return true;
  }

  /** The message as it is sent: a run message with its step array and workflow headers. */
  view(m: QueueMessage): QueueMessage {
    const tag = m.workflow;
    const run = tag?.kind === 'trigger' || tag?.kind === 'step' ? this.store.runs.get(tag.runId) : undefined;
    if (run === undefined) return m;
    const headers: Record<string, string> = {
      ...m.headers,
      'upstash-workflow-runid': run.id,
      'upstash-workflow-createdat': String(run.createdAt),
      'upstash-workflow-sdk-version': PROTOCOL_VERSION,
      'upstash-workflow-url': run.url,
    };
    if (run.labels !== undefined) headers['upstash-label'] = run.labels.join(',');
    if (tag?.kind === 'trigger' && tag.unknownSdk === true) headers['upstash-workflow-unknown-sdk'] = 'true';
    const body = Buffer.from(JSON.stringify(rawSteps(run, m.id))).toString('base64');
    return { ...m, headers, body };
  }

  /**
   * The callback of a context.call request: to the workflow URL with the Upstash-Callback-Workflow-*
   * settings as Upstash-Workflow-* headers. Never with Upstash-Workflow-Sdk-Version: the library
   * reads a callback as a first call carrying the run id, and would parse it as a step array.
   */
  callback(m: QueueMessage, generic: QueueMessage): QueueMessage {
    const tag = m.workflow;
    if (tag?.kind !== 'call') return generic;
    const headers: Record<string, string> = { ...forwardedHeaders(this.store.runs.get(tag.runId)), ...generic.headers };
    for (const [name, value] of Object.entries(tag.settings ?? {})) {
      if (name.startsWith(CALLBACK_WORKFLOW)) headers[`upstash-workflow-${name.slice(CALLBACK_WORKFLOW.length)}`] = value;
      else if (name === 'upstash-callback-feature-set') headers['upstash-feature-set'] = value;
    }
    headers['upstash-workflow-runid'] ??= tag.runId;
    return { ...generic, headers, workflow: { runId: tag.runId, kind: 'callback' } };
  }

  /** The outcome of delivering `m`, a trigger answered by a non-workflow endpoint made a final failure. */
  judge(m: QueueMessage, out: Outcome): Outcome {
    if (!out.ok || m.workflow?.kind !== 'trigger' || out.headers['upstash-workflow-sdk-version'] !== undefined) return out;
    return { ...out, ok: false, final: true, error: NON_WORKFLOW_DESTINATION };
  }

  /**
   * The failure callback of run message `m`, made from the queue's own `generic` one; null when
   * the run has already ended (a cancelled run gets none).
   */
  failureCallback(m: QueueMessage, generic: QueueMessage): QueueMessage | null {
    const tag = m.workflow;
    if (tag?.kind !== 'trigger' && tag?.kind !== 'step') return generic;
    const run = this.store.runs.get(tag.runId);
    return run === undefined || run.state !== 'RUN_STARTED' ? null : workflowFailureCallback(run, generic);
  }
}

/** The queue's `generic` failure callback of a run message, made the library's. */
export function workflowFailureCallback(run: RunRecord, generic: QueueMessage): QueueMessage {
  const headers: Record<string, string> = { ...forwardedHeaders(run), ...generic.headers };
  // Upstash-Failure-Callback-Workflow-RunId and the like are settings of the callback, sent as
  // Upstash-Workflow-RunId; the library needs the run id from them.
  for (const [name, value] of Object.entries(run.settings)) {
    if (name.startsWith(FAILURE_WORKFLOW)) headers[`upstash-workflow-${name.slice(FAILURE_WORKFLOW.length)}`] = value;
    else if (name === 'upstash-failure-callback-feature-set') headers['upstash-feature-set'] = value;
  }
  headers['upstash-workflow-runid'] ??= run.id;
  const payload = JSON.parse(Buffer.from(generic.body, 'base64').toString('utf8')) as Record<string, unknown>;
  Object.assign(payload, { url: run.url, sourceBody: run.initialBody, workflowRunId: run.id, workflowCreatedAt: run.createdAt });
  return { ...generic, headers, body: Buffer.from(JSON.stringify(payload)).toString('base64'), workflow: { runId: run.id, kind: 'failure' } };
}
