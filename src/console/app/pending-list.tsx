// The queue's messages not yet delivered (/console/api/queue/messages, 50 a page): state, url,
// retries and next delivery time, with cancel (DELETE /v2/messages/<id> with the queue token)
// in the full console. The read-only console lists them only; its queue token could not cancel.

import { useEffect, useState } from 'preact/hooks';
import type { ConsolePendingMessage, ConsolePendingPage } from '../wire';
import { adminGet, bearer, call, errorText } from './api';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';

export function PendingList(props: { url: string; token: string; readOnly: boolean }) {
  const [messages, setMessages] = useState<ConsolePendingMessage[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useInFlight();

  async function load(from: string | undefined) {
    try {
      const page = await adminGet<ConsolePendingPage>(`queue/messages${from === undefined ? '' : `?cursor=${encodeURIComponent(from)}`}`);
      setMessages((prev) => (from === undefined ? [...page.messages] : [...prev, ...page.messages]));
      setCursor(page.cursor);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => void load(undefined), []);

  const cancel = (id: string) =>
    run(async () => {
      try {
        await call(`${props.url}/v2/messages/${encodeURIComponent(id)}`, bearer(props.token), 'DELETE');
        await load(undefined);
      } catch (e) {
        setError(errorText(e));
      }
    });

  return (
    <section aria-label="Pending messages">
      <h2>
        Messages in flight and waiting{' '}
        <button type="button" onClick={() => void load(undefined)}>
          Refresh
        </button>
      </h2>
      <FieldError error={error} />
      {messages.length === 0 ? (
        <p class="empty">No pending messages.</p>
      ) : (
        <table class="entries" aria-label="Pending messages">
          <thead>
            <tr>
              <th>message</th>
              <th>state</th>
              <th>url</th>
              <th>queue</th>
              <th>retried</th>
              <th>next delivery</th>
              {!props.readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <tr key={m.messageId}>
                <td>{m.messageId}</td>
                <td>{m.state}</td>
                <td>
                  {m.method} {m.url}
                </td>
                <td>{m.queueName ?? ''}</td>
                <td>
                  {m.retried} of {m.retries}
                </td>
                <td>{new Date(m.nextDeliveryAt).toISOString()}</td>
                {!props.readOnly && (
                  <td>
                    <button type="button" class="danger" disabled={busy} aria-label={`Cancel ${m.messageId}`} onClick={() => void cancel(m.messageId)}>
                      Cancel
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor !== undefined && (
        <button type="button" onClick={() => void load(cursor)}>
          More…
        </button>
      )}
    </section>
  );
}
