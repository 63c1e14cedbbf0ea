// Workflow runs as /v2/workflows/events shows them (the library's WorkflowRunLog): the run's
// state and result, its steps in run order grouped as "sequential" (one step) or "parallel"
// (one Promise.all: a place per branch, made by its plan step, holding the branch's result once
// it came, else the branch without a result, in progress, retrying or failed), then a "next"
// group with the messages still on their way (or the one that failed), and the failure
// function's progress. An invoke step names the run it started.
// Built from the run store and the pending messages, so they survive restarts.

import { multi } from '../delivery/callbacks.js';
import type { QueueStore } from '../store/queue-store.js';
import { forwardedHeaders, type RunRecord, type RunStep } from './run.js';

type Group = { type: 'sequential' | 'parallel' | 'next'; steps: Record<string, unknown>[] };

/** Newest first: up to `count` of the runs `keep` takes from `cursor` (an offset), and the next cursor. */
export function runLogs(store: QueueStore, keep: (r: RunRecord) => boolean, count: number, cursor: number): { runs: Record<string, unknown>[]; cursor?: string } {
  const all = [...store.runs.all()].reverse().filter(keep);
  const page = all.slice(cursor, cursor + count).map((r) => runLog(store, r));
  return cursor + count < all.length ? { runs: page, cursor: String(cursor + count) } : { runs: page };
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
  /** Where each branch of the open parallel groups sits, by its step id (the plan step's targetStep). */
  const branches = new Map<number, { group: Group; at: number }>();
  for (const s of r.steps) {
    const step = parseStep(s);
    if (step === null) continue;
    const last = out[out.length - 1];
    const n = typeof step.concurrent === 'number' ? step.concurrent : 1;
    if (typeof step.targetStep === 'number' && step.stepId === 0) {
      const group: Group = last.type === 'parallel' && last.steps.length < n ? last : { type: 'parallel', steps: [] };
      if (group !== last) out.push(group);
      branches.set(step.targetStep, { group, at: group.steps.length });
      group.steps.push(branchLog(store, r, s, step));
      continue;
    }
    const logged = stepLog(store, r, s, step);
    const branch = typeof step.stepId === 'number' ? branches.get(step.stepId) : undefined;
    if (branch !== undefined) branch.group.steps[branch.at] = logged;
    else if (n <= 1) out.push({ type: 'sequential', steps: [logged] });
    else if (last.type === 'parallel' && last.steps.length < n) last.steps.push(logged);
    else out.push({ type: 'parallel', steps: [logged] });
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

function parseStep(s: RunStep): Record<string, unknown> | null {
  try {
    return JSON.parse(text(s.body)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** A branch of a Promise.all that has no result yet, from its plan step: on its way, or the step the run failed at. */
function branchLog(store: QueueStore, r: RunRecord, s: RunStep, plan: Record<string, unknown>): Record<string, unknown> {
  const pending = store.get(s.messageId);
  const state = r.failure?.messageId === s.messageId ? 'STEP_FAILED' : pending !== undefined && pending.retried > 0 ? 'STEP_RETRY' : 'STEP_PROGRESS';
  return {
    stepId: plan.targetStep,
    stepName: plan.stepName,
    stepType: plan.stepType,
    callType: 'step',
    messageId: s.messageId,
    concurrent: plan.concurrent,
    state,
    createdAt: s.createdAt,
    retries: pending?.retried ?? 0,
    headers: {},
  };
}

/** A step result as logged. */
function stepLog(store: QueueStore, r: RunRecord, s: RunStep, step: Record<string, unknown>): Record<string, unknown> {
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
  if (step.stepType === 'Invoke') Object.assign(out, invoked(store, r, step.stepId));
  return out;
}

/** The run an invoke step started, as the library's InvokedWorkflowGroup; found by a scan, as logs are read rarely. */
function invoked(store: QueueStore, r: RunRecord, stepId: unknown): Record<string, unknown> {
  for (const child of store.runs.all()) {
    if (child.invoker?.workflowRunId !== r.id || child.invoker.step.stepId !== stepId) continue;
    return {
      invokedWorkflowRunId: child.id,
      invokedWorkflowUrl: child.url,
      invokedWorkflowCreatedAt: child.createdAt,
      invokedWorkflowRunBody: text(child.initialBody),
      invokedWorkflowRunHeaders: multi(forwardedHeaders(child)),
    };
  }
  return {};
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
