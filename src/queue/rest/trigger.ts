// POST /v2/trigger/{workflowUrl}: starts a workflow run without an SDK. The request is a publish
// of the run's trigger (Upstash-Forward-*, Retries, Delay, Label, Flow-Control, Failure-Callback
// as for any publish); Upstash-Workflow-RunId names the run, else one is made. It carries no
// protocol version, so its delivery tells the endpoint it came from an unknown SDK and the
// endpoint triggers the run again in its own way (workflow/run-publish.ts).

import type { HttpResponse } from '../../server/http.js';
import { isError } from '../errors.js';
import { newRunId } from '../workflow/run.js';
import { fail, ok } from './envelope.js';
import { destinationOf, draftsOf, refusal } from './publish.js';
import type { HeaderSource } from '../options/publish-options.js';
import { requestHeaders, withQuerySettings, type Call } from './request.js';

// POST /v2/trigger/{workflowUrl}  ->  {workflowRunId, workflowCreatedAt}
export async function triggerWorkflow(call: Call, body: Buffer): Promise<HttpResponse> {
  const given = withQuerySettings(requestHeaders(call.req), call.req.query);
  const runId = given.get('upstash-workflow-runid') ?? newRunId();
  const fixed: Record<string, string> = { 'upstash-workflow-runid': runId, 'upstash-workflow-init': 'true' };
  const h: HeaderSource = { get: (n) => fixed[n] ?? given.get(n), names: () => [...new Set([...given.names(), ...Object.keys(fixed)])] };
  const drafts = draftsOf(call, destinationOf(call, call.rest), h, body);
  if (isError(drafts)) return fail(drafts);
  const refused = await refusal(call, drafts);
  if (refused !== null) return fail(refused);
  const out = call.ctx.engine.publish(drafts);
  if (isError(out)) return fail(out);
  const run = call.ctx.workflows.run(runId);
  return ok({ workflowRunId: runId, workflowCreatedAt: run?.createdAt ?? drafts[0].message.createdAt });
}
