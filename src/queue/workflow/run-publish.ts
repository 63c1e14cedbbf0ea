// Publishes that belong to a workflow run (issue 10), told apart by Upstash-Workflow-RunId:
// - `Upstash-Workflow-Init: true` starts a run (a trigger). A second trigger of the same run id
//   answers the first trigger's message id with `deduplicated: true` (through `triggerKey`).
//   A trigger without the protocol version (POST /v2/trigger, another SDK) is marked unknownSdk;
//   the endpoint answers its delivery by triggering the run again with
//   `upstash-workflow-trigger-by-sdk: true`, which is no duplicate while the run has no step: it
//   becomes the run's trigger (else the run would wait forever for a trigger it deduplicated).
// - anything else is a step result of a run, accepted only while the run is active (else 400,
//   which the library takes as "the run ended" and stops quietly). The library sends a step
//   without the run's retries, retry delay, flow control, failure callback or forwarded headers
//   (WF_TriggerOnConfig): the trigger's raw settings are re-applied here, the step's own win.
//   A step published twice (the endpoint ran it twice) answers the first one, deduplicated.
// - `Upstash-Workflow-CallType: toCallback` is a context.call request to a third party: its own
//   settings only, and its Upstash-Callback-Workflow-* headers kept for the callback.

import { badRequest, invalidRunId, isError, workflowRunNotActive, type QueueError } from '../errors.js';
import type { Published, QueueEngine } from '../engine.js';
import { readPublish, type HeaderSource } from '../options/publish-options.js';
import { isPathName } from '../store/gate-records.js';
import type { Draft, WorkflowTag } from '../store/message.js';
import { stepKey, triggerKey, type RunRecord, type RunStore } from './run.js';

export interface ServerStepSettings {
  defaultRetries: number;
  maxMessageBytes: number;
  /** queue.maxDelayMs: also the longest wait for an event. */
  maxDelayMs: number;
  now: () => number;
}

/**
 * Publishes a step Larder makes itself (a wait ended, an invoked run's result) into an active
 * run, as the library would: with the protocol version forwarded, and the trigger's settings.
 */
export function publishServerStep(engine: QueueEngine, s: ServerStepSettings, run: RunRecord, step: Record<string, unknown>): Published | QueueError {
  const raw: Record<string, string> = { 'upstash-workflow-runid': run.id, 'upstash-forward-upstash-workflow-sdk-version': '1', 'content-type': 'application/json' };
  const h: HeaderSource = { get: (n) => raw[n], names: () => Object.keys(raw) };
  const now = s.now();
  const draft = runDraft(engine.store.runs, h, (h) =>
    readPublish(run.url, h, Buffer.from(JSON.stringify(step)), { now, callerIp: '', defaultRetries: s.defaultRetries, maxMessageBytes: s.maxMessageBytes, maxDelayMs: s.maxDelayMs }),
  );
  if (isError(draft)) return draft;
  const out = engine.publish([draft]);
  return isError(out) ? out : out[0];
}

/** Trigger headers that concern the trigger message alone, not the run. */
const TRIGGER_ONLY = [
  'upstash-workflow-',
  'upstash-delay',
  'upstash-not-before',
  'upstash-deduplication-id',
  'upstash-content-based-deduplication',
  'upstash-method',
  'upstash-feature-set',
  'upstash-telemetry-',
  'upstash-callback',
];

/** Reads the publish as `read` does, classified and completed when it belongs to a run. */
export function runDraft(runs: RunStore, h: HeaderSource, read: (h: HeaderSource) => Draft | QueueError): Draft | QueueError {
  const runId = h.get('upstash-workflow-runid');
  if (runId === undefined) return read(h);
  if (h.get('upstash-workflow-init')?.toLowerCase() === 'true') {
    // A run the /v2/workflows/runs/{id} endpoints could not address could be neither read nor cancelled by id.
    if (!isPathName(runId)) return invalidRunId(runId);
    const draft = read(h);
    if (isError(draft)) return draft;
    const tag: WorkflowTag = (draft.message.workflow = { runId, kind: 'trigger', settings: runSettings(h) });
    if (h.get('upstash-workflow-invoke')?.toLowerCase() === 'true') {
      const err = unwrapInvoke(draft);
      if (err !== null) return err;
    }
    if (h.get('upstash-workflow-sdk-version') === undefined) tag.unknownSdk = true;
    const first = runs.active(runId);
    if (h.get('upstash-workflow-trigger-by-sdk')?.toLowerCase() === 'true' && first !== undefined && first.steps.length === 0) tag.retrigger = true;
    else draft.dedupKey = triggerKey(runId);
    return draft;
  }
  const run = runs.active(runId);
  if (run === undefined) return workflowRunNotActive(runId);
  if (h.get('upstash-workflow-calltype') === 'toCallback') {
    // context.call: a request to a third party with its own settings; its callback resumes the run.
    const draft = read(h);
    if (isError(draft)) return draft;
    draft.message.workflow = { runId, kind: 'call', settings: callbackSettings(h) };
    return draft;
  }
  const draft = read(withSettings(h, run.settings));
  if (isError(draft)) return draft;
  draft.message.workflow = { runId, kind: 'step' };
  const key = stepKey(runId, draft.message.body);
  if (key !== undefined) draft.dedupKey = key;
  return draft;
}

function runSettings(h: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of h.names()) {
    if (!name.startsWith('upstash-') || TRIGGER_ONLY.some((p) => name.startsWith(p))) continue;
    out[name] = h.get(name)!;
  }
  return out;
}

/**
 * context.invoke's trigger carries {body, headers, workflowRunId, workflowRunCreatedAt, workflowUrl,
 * step}: the child's initial payload is `body`, the rest says where its result goes.
 */
function unwrapInvoke(draft: Draft): QueueError | null {
  let env: { body?: unknown; workflowRunId?: unknown; workflowRunCreatedAt?: unknown; workflowUrl?: unknown; step?: unknown };
  try {
    env = JSON.parse(Buffer.from(draft.message.body, 'base64').toString('utf8')) as typeof env;
  } catch {
    return badRequest('an invoke needs a JSON body');
  }
  if (typeof env.workflowRunId !== 'string' || typeof env.workflowUrl !== 'string' || typeof env.step !== 'object' || env.step === null) {
    return badRequest('an invoke body needs workflowRunId, workflowUrl and step');
  }
  draft.message.body = Buffer.from(typeof env.body === 'string' ? env.body : '').toString('base64');
  draft.message.workflow!.invoker = {
    workflowRunId: env.workflowRunId,
    workflowRunCreatedAt: typeof env.workflowRunCreatedAt === 'number' ? env.workflowRunCreatedAt : 0,
    workflowUrl: env.workflowUrl,
    step: env.step as Record<string, unknown>,
  };
  return null;
}

/** The Upstash-Callback-Workflow-* and -Feature-Set headers: settings of the callback, not forwarded ones. */
function callbackSettings(h: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of h.names()) if (name.startsWith('upstash-callback-workflow-') || name === 'upstash-callback-feature-set') out[name] = h.get(name)!;
  return out;
}

function withSettings(h: HeaderSource, settings: Record<string, string>): HeaderSource {
  return {
    get: (n) => h.get(n) ?? settings[n],
    names: () => [...new Set([...h.names(), ...Object.keys(settings)])],
  };
}
