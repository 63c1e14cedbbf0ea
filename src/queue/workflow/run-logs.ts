// Workflow runs as /v2/workflows/events shows them (the library's WorkflowRunLog): the run's
// state and result, its steps in run order grouped as "sequential" (one step) or "parallel"
// (the results of one Promise.all; plan steps are not shown), then a "next" group with the
// messages still on their way (or the one that failed), and the failure function's progress.
// Built from the run store and the pending messages, so they survive restarts.

import { multi } from '../delivery/callbacks.js';
import type { QueueStore } from '../store/queue-store.js';
import type { RunRecord, RunStep } from './run.js';

export interface RunFilter {
  workflowRunId?: string;
  workflowUrl?: string;
  workflowCreatedAt?: number;
  state?: string;
  label?: string;
  fromDate?: number;
  toDate?: number;
  messageId?: string;
}

type Group = { type: 'sequential' | 'parallel' | 'next'; steps: Record<string, unknown>[] };

/** Newest first: up to `count` matching runs from `cursor` (an offset), and the next cursor. */
export function runLogs(store: QueueStore, f: RunFilter, count: number, cursor: number): { runs: Record<string, unknown>[]; cursor?: string } {
  const all = [...store.runs.all()].reverse().filter((r) => matches(r, f));
  const page = all.slice(cursor, cursor + count).map((r) => runLog(store, r));
  return cursor + count < all.length ? { runs: page, cursor: String(cursor + count) } : { runs: page };
}

function matches(r: RunRecord, f: RunFilter): boolean {
  return (
    (f.workflowRunId === undefined || r.id === f.workflowRunId) &&
    (f.workflowUrl === undefined || r.url === f.workflowUrl) &&
    (f.workflowCreatedAt === undefined || r.createdAt === f.workflowCreatedAt) &&
    (f.state === undefined || r.state === f.state) &&
    (f.label === undefined || (r.labels ?? []).includes(f.label)) &&
    (f.fromDate === undefined || r.createdAt >= f.fromDate) &&
    (f.toDate === undefined || r.createdAt <= f.toDate) &&
    (f.messageId === undefined || r.triggerMessageId === f.messageId || r.steps.some((s) => s.messageId === f.messageId))
  );
}

function runLog(store: QueueStore, r: RunRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    workflowRunId: r.id,
    workflowUrl: r.url,
    workflowState: r.state,
    workflowRunCreatedAt: r.createdAt,
    steps: groups(store, r),
  };
  if (r.completedAt !== undefined) out.workflowRunCompletedAt = r.completedAt;
  if (r.response !== undefined) out.workflowRunResponse = r.response;
  if (r.labels !== undefined) Object.assign(out, { label: r.labels[0], labels: r.labels });
  if (r.invoker !== undefined) out.invoker = { workflowRunId: r.invoker.workflowRunId, workflowUrl: r.invoker.workflowUrl, workflowRunCreatedAt: r.invoker.workflowRunCreatedAt };
  const f = r.failure;
  if (f !== undefined) {
    out.dlqId = f.dlqId;
    if (f.callback !== undefined) {
      out.failureFunction = {
        messageId: f.callback.messageId,
        url: r.settings['upstash-failure-callback'] ?? r.url,
        state: f.callback.state,
        failHeaders: multi(f.response.headers),
        failStatus: f.response.status,
        failResponse: failureText(f.response.body),
        dlqId: f.dlqId,
      };
    }
  }
  return out;
}

function groups(store: QueueStore, r: RunRecord): Group[] {
  const init = { stepId: 0, stepName: 'init', stepType: 'Initial', callType: 'step', messageId: r.triggerMessageId, out: text(r.initialBody), concurrent: 1, state: 'STEP_SUCCESS', createdAt: r.createdAt, retries: 0, headers: {} };
  const out: Group[] = [{ type: 'sequential', steps: [init] }];
  for (const s of r.steps) {
    const step = stepLog(s);
    if (step === null) continue;
    const last = out[out.length - 1];
    const n = step.concurrent as number;
    if (n <= 1) out.push({ type: 'sequential', steps: [step] });
    else if (last.type === 'parallel' && last.steps.length < n) last.steps.push(step);
    else out.push({ type: 'parallel', steps: [step] });
  }
  const next: Record<string, unknown>[] = [];
  if (r.state === 'RUN_STARTED') {
    for (const id of store.runs.pendingOf(r.id)) {
      const m = store.get(id);
      if (m === undefined || m.workflow?.kind === 'failure') continue;
      const last = store.lastResponse(id);
      const entry: Record<string, unknown> = { messageId: id, state: m.retried > 0 ? 'STEP_RETRY' : 'STEP_PROGRESS', retries: m.retried };
      if (last !== undefined) {
        if (last.headers['upstash-error-step-name'] !== undefined) entry.stepName = last.headers['upstash-error-step-name'];
        entry.errors = [{ error: last.error ?? `endpoint answered ${last.status}`, body: text(last.body), headers: multi(last.headers), status: last.status, time: m.notBefore }];
      }
      next.push(entry);
    }
  } else if (r.failure !== undefined) {
    const res = r.failure.response;
    const entry: Record<string, unknown> = { messageId: r.failure.messageId, state: 'STEP_FAILED', retries: 0 };
    if (res.headers['upstash-error-step-name'] !== undefined) entry.stepName = res.headers['upstash-error-step-name'];
    entry.errors = [{ error: res.error ?? `endpoint answered ${res.status}`, body: text(res.body), headers: multi(res.headers), status: res.status, time: r.failure.at }];
    next.push(entry);
  }
  if (next.length > 0) out.push({ type: 'next', steps: next });
  return out;
}

/** A step result as logged; null for a plan step of a parallel group (no result yet). */
function stepLog(s: RunStep): Record<string, unknown> | null {
  let step: Record<string, unknown>;
  try {
    step = JSON.parse(text(s.body)) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (step.targetStep !== undefined && step.stepId === 0) return null;
  const out: Record<string, unknown> = {
    stepId: step.stepId,
    stepName: step.stepName,
    stepType: step.stepType,
    callType: 'step',
    messageId: s.messageId,
    out: step.out,
    concurrent: step.concurrent ?? 1,
    state: 'STEP_SUCCESS',
    createdAt: s.createdAt,
    retries: 0,
    headers: {},
  };
  for (const k of ['sleepFor', 'sleepUntil'] as const) if (step[k] !== undefined) out[k] = step[k];
  if (typeof step.waitEventId === 'string') Object.assign(out, { waitEventId: step.waitEventId, waitTimeoutDuration: step.timeout, waitTimeout: step.waitTimeout === true });
  if (step.stepType === 'Call' && typeof step.out === 'string') {
    try {
      const r = JSON.parse(step.out) as { status?: unknown; body?: unknown; header?: unknown };
      Object.assign(out, { callResponseStatus: r.status, callResponseBody: r.body, callResponseHeaders: r.header });
    } catch {
      // Not the library's call result: shown as it is.
    }
  }
  return out;
}

const text = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/** The error message of the endpoint's JSON answer, else the answer's text. */
function failureText(b64: string): string {
  const t = text(b64);
  try {
    const j = JSON.parse(t) as { message?: unknown };
    return typeof j.message === 'string' ? j.message : t;
  } catch {
    return t;
  }
}
