// The queue page: messages in flight and waiting with cancel, the dead-letter queue with retry and delete (full console only), schedules,
// queues and URL groups, and the event log with a state filter (newest first, paged). Choosing a
// message id narrows the log to that message: its timeline.

import { useEffect, useState } from 'preact/hooks';
import type { ConsoleInfo } from '../wire';
import { bearer, call, errorText } from './api';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';
import { PendingList } from './pending-list';
import { QueueList } from './queue-list';
import { ScheduleList } from './schedule-list';

const STATES = ['', 'CREATED', 'ACTIVE', 'IN_PROGRESS', 'DELIVERED', 'ERROR', 'RETRY', 'FAILED', 'CANCELED'] as const;
const PAGE = 50;

interface QueueEvent {
  time: number;
  messageId: string;
  state: string;
  url?: string;
  queueName?: string;
  error?: string;
}

interface DlqMessage {
  dlqId: string;
  messageId: string;
  url?: string;
  responseStatus?: number;
}

export function QueuePage(props: { info: ConsoleInfo }) {
  const queue = props.info.queue;
  const [state, setState] = useState('');
  const [messageId, setMessageId] = useState('');
  const [events, setEvents] = useState<QueueEvent[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [dlq, setDlq] = useState<DlqMessage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useInFlight();

  async function loadEvents(from: string | undefined) {
    if (queue === null) return;
    const q = new URLSearchParams({ count: String(PAGE) });
    if (state !== '') q.set('state', state);
    if (messageId !== '') q.set('messageId', messageId);
    if (from !== undefined) q.set('cursor', from);
    try {
      const page = await call<{ events: QueueEvent[]; cursor?: string }>(`${queue.url}/v2/events?${q}`, bearer(queue.token));
      setEvents((prev) => (from === undefined ? page.events : [...prev, ...page.events]));
      setCursor(page.cursor);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function loadDlq() {
    if (queue === null) return;
    try {
      setDlq((await call<{ messages: DlqMessage[] }>(`${queue.url}/v2/dlq?count=${PAGE}`, bearer(queue.token))).messages);
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => void loadEvents(undefined), [state, messageId]);
  useEffect(() => void loadDlq(), []);

  const act = (method: string, path: string) =>
    run(async () => {
      try {
        await call(`${queue!.url}${path}`, bearer(queue!.token), method);
        await Promise.all([loadDlq(), loadEvents(undefined)]);
      } catch (e) {
        setError(errorText(e));
      }
    });

  if (queue === null) return <p class="empty">The message queue is not served by this process.</p>;
  return (
    <div class="service-page">
      <FieldError error={error} />
      <PendingList url={queue.url} token={queue.token} readOnly={props.info.readOnly} />
      <h2>Dead-letter queue</h2>
      {dlq.length === 0 ? (
        <p class="empty">No failed messages.</p>
      ) : (
        <table class="entries" aria-label="Dead-letter queue">
          <thead>
            <tr>
              <th>message</th>
              <th>url</th>
              <th>status</th>
              {!props.info.readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {dlq.map((m) => (
              <tr key={m.dlqId}>
                <td>{m.messageId}</td>
                <td>{m.url ?? ''}</td>
                <td>{m.responseStatus ?? ''}</td>
                {!props.info.readOnly && (
                  <td>
                    <button type="button" disabled={busy} onClick={() => void act('POST', `/v2/dlq/retry/${encodeURIComponent(m.dlqId)}`)}>
                      Retry
                    </button>{' '}
                    <button type="button" class="danger" disabled={busy} onClick={() => void act('DELETE', `/v2/dlq/${encodeURIComponent(m.dlqId)}`)}>
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ScheduleList url={queue.url} token={queue.token} readOnly={props.info.readOnly} />
      <QueueList url={queue.url} token={queue.token} readOnly={props.info.readOnly} />
      <h2>Events</h2>
      <label class="inline">
        State
        <select name="state" value={state} onChange={(e) => setState(e.currentTarget.value)}>
          {STATES.map((s) => (
            <option value={s}>{s === '' ? 'any state' : s}</option>
          ))}
        </select>
      </label>
      {messageId !== '' && (
        <p class="facts">
          Timeline of {messageId}{' '}
          <button type="button" onClick={() => setMessageId('')}>
            All messages
          </button>
        </p>
      )}
      <table class="entries" aria-label="Events">
        <thead>
          <tr>
            <th>time</th>
            <th>message</th>
            <th>state</th>
            <th>url</th>
            <th>queue</th>
            <th>error</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={`${e.time}/${e.messageId}/${e.state}`}>
              <td>{new Date(e.time).toISOString()}</td>
              <td>
                <button type="button" class="link" title="Show this message's timeline" onClick={() => setMessageId(e.messageId)}>
                  {e.messageId}
                </button>
              </td>
              <td>{e.state}</td>
              <td>{e.url ?? ''}</td>
              <td>{e.queueName ?? ''}</td>
              <td>{e.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.length === 0 && <p class="empty">No events.</p>}
      {cursor !== undefined && (
        <button type="button" onClick={() => void loadEvents(cursor)}>
          More…
        </button>
      )}
    </div>
  );
}
