// Dead letters of workflow runs (issue 10): a run message that failed for good leaves a DLQ entry
// naming its run. Resume makes a new run (new id) holding the failed run's steps before the failed
// message and delivers that message again with fresh retries, so completed steps do not run
// again; restart makes a new run from the initial payload and the trigger's settings. Both
// consume the entry. The failure callback of a failed run can be sent again. Not safe for concurrent use; the service's JS thread owns it.

import { callbackMessage } from '../delivery/callbacks.js';
import type { Scheduler } from '../delivery/scheduler.js';
import type { QueueEngine } from '../engine.js';
import { badRequest, isError, unknownDlqMessage, type QueueError } from '../errors.js';
import { readPublish, type HeaderSource } from '../options/publish-options.js';
import type { EventLog } from '../store/event-log.js';
import { newMessageId, type DlqEntry, type QueueMessage } from '../store/message.js';
import { workflowFailureCallback } from './run-delivery.js';
import { runDraft, type ServerStepSettings } from './run-publish.js';
import { newRunId, type RunRecord } from './run.js';

export interface NewRun {
  workflowRunId: string;
  workflowCreatedAt: string;
}

/** Settings a resume or restart may change: Upstash-Retries, Upstash-Flow-Control-Key/-Value. */
export type Overrides = Record<string, string>;


export class RunDlq {
  constructor(
    private readonly engine: QueueEngine,
    private readonly scheduler: Scheduler,
    private readonly events: EventLog,
    private readonly s: ServerStepSettings,
  ) {}

  /** The dead letters of workflow runs, with their runs. */
  entries(): { entry: DlqEntry; run: RunRecord | undefined }[] {
    const out = [];
    for (const entry of this.engine.store.dlq()) {
      const kind = entry.message.workflow?.kind;
      if (kind === 'trigger' || kind === 'step') out.push({ entry, run: this.engine.store.runs.get(entry.message.workflow!.runId) });
    }
    return out;
  }

  resume(dlqId: string, o: Overrides): NewRun | QueueError {
    const found = this.runOf(dlqId);
    if (isError(found)) return found;
    const { entry, run } = found;
    const now = this.s.now();
    const id = newRunId();
    const failed = entry.message;
    const settings = { ...run.settings, ...o };
    const retries = o['upstash-retries'] === undefined ? failed.retries : Number(o['upstash-retries']);
    const message: QueueMessage = { ...failed, id: newMessageId(), createdAt: now, notBefore: now, retried: 0, retries, workflow: { runId: id, kind: failed.workflow!.kind, ...(failed.workflow!.kind === 'trigger' && { settings }) } };
    const copy: RunRecord = { id, url: run.url, createdAt: now, triggerMessageId: run.triggerMessageId, initialBody: run.initialBody, settings, state: 'RUN_STARTED', steps: [] };
    if (run.labels !== undefined) copy.labels = run.labels;
    if (failed.workflow!.kind === 'trigger') copy.triggerMessageId = message.id;
    else {
      const at = run.steps.findIndex((s) => s.messageId === failed.id);
      copy.steps = [...run.steps.slice(0, at < 0 ? run.steps.length : at), { messageId: message.id, body: failed.body, createdAt: now }];
    }
    this.engine.store.changeRun({ kind: 'copy', run: copy }, [message], dlqId);
    this.events.add('CREATED', message);
    this.scheduler.schedule(message);
    return { workflowRunId: id, workflowCreatedAt: String(now) };
  }

  restart(dlqId: string, o: Overrides): NewRun | QueueError {
    const found = this.runOf(dlqId);
    if (isError(found)) return found;
    const { run } = found;
    const id = newRunId();
    const now = this.s.now();
    const raw: Record<string, string> = { ...run.settings, ...o, 'upstash-workflow-runid': id, 'upstash-workflow-init': 'true', 'upstash-workflow-sdk-version': '1', 'content-type': 'application/json' };
    const h: HeaderSource = { get: (n) => raw[n], names: () => Object.keys(raw) };
    const draft = runDraft(this.engine.store.runs, h, (h) =>
      readPublish(run.url, h, Buffer.from(run.initialBody, 'base64'), { now, callerIp: '', defaultRetries: this.s.defaultRetries, maxMessageBytes: this.s.maxMessageBytes, maxDelayMs: this.s.maxDelayMs }),
    );
    if (isError(draft)) return draft;
    const out = this.engine.publish([draft]);
    if (isError(out)) return out;
    this.engine.store.removeDlq(dlqId);
    return { workflowRunId: id, workflowCreatedAt: String(now) };
  }

  /** The failure callback of a failed run, made again (the failure function runs once more). */
  callback(dlqId: string): { workflowRunId: string; workflowCreatedAt: string } | QueueError {
    const found = this.runOf(dlqId);
    if (isError(found)) return found;
    const { entry, run } = found;
    const to = entry.message.failureCallback;
    if (to === undefined) return badRequest(`workflow run ${run.id} has no failure callback`);
    const generic = callbackMessage('failureCallback', to, entry.message, entry.response, { retries: this.s.defaultRetries, now: this.s.now() }, dlqId);
    const out = this.engine.publish([{ message: workflowFailureCallback(run, generic) }]);
    return isError(out) ? out : { workflowRunId: run.id, workflowCreatedAt: String(run.createdAt) };
  }

  private runOf(dlqId: string): { entry: DlqEntry; run: RunRecord } | QueueError {
    const entry = this.engine.store.dlqEntry(dlqId);
    if (entry === undefined) return unknownDlqMessage(dlqId);
    const tag = entry.message.workflow;
    const run = tag === undefined ? undefined : this.engine.store.runs.get(tag.runId);
    if (run === undefined || (tag?.kind !== 'trigger' && tag?.kind !== 'step')) return badRequest(`dlq message ${dlqId} is not a failed workflow run's`);
    return { entry, run };
  }
}
