// The queue's named queues (GET /v2/queues) with parallelism and lag, each with pause or resume
// (full console only); and its URL groups (GET /v2/topics) with their endpoints.

import { useEffect, useState } from 'preact/hooks';
import { bearer, call, errorText } from './api';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';

interface NamedQueue {
  name: string;
  parallelism: number;
  lag: number;
  paused: boolean;
}

interface UrlGroup {
  name: string;
  endpoints: { url: string; name?: string }[];
}

export function QueueList(props: { url: string; token: string; readOnly: boolean }) {
  const [queues, setQueues] = useState<NamedQueue[] | null>(null);
  const [groups, setGroups] = useState<UrlGroup[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useInFlight();

  async function load() {
    try {
      const [q, g] = await Promise.all([call<NamedQueue[]>(`${props.url}/v2/queues`, bearer(props.token)), call<UrlGroup[]>(`${props.url}/v2/topics`, bearer(props.token))]);
      setQueues(q);
      setGroups(g);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => void load(), []);

  const toggle = (q: NamedQueue) =>
    run(async () => {
      try {
        await call(`${props.url}/v2/queues/${encodeURIComponent(q.name)}/${q.paused ? 'resume' : 'pause'}`, bearer(props.token), 'POST');
        await load();
      } catch (e) {
        setError(errorText(e));
      }
    });

  return (
    <section aria-label="Queues">
      <h2>Queues</h2>
      <FieldError error={error} />
      {queues !== null && queues.length === 0 && <p class="empty">No queues.</p>}
      {queues !== null && queues.length > 0 && (
        <table class="entries" aria-label="Queue list">
          <thead>
            <tr>
              <th>queue</th>
              <th>parallelism</th>
              <th>lag</th>
              <th>state</th>
              {!props.readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {queues.map((q) => (
              <tr>
                <td>{q.name}</td>
                <td>{q.parallelism}</td>
                <td>{q.lag}</td>
                <td>{q.paused ? 'paused' : 'active'}</td>
                {!props.readOnly && (
                  <td>
                    <button type="button" disabled={busy} onClick={() => void toggle(q)}>
                      {q.paused ? 'Resume' : 'Pause'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>URL groups</h2>
      {groups !== null && groups.length === 0 && <p class="empty">No URL groups.</p>}
      {groups !== null && groups.length > 0 && (
        <ul class="groups" aria-label="URL groups">
          {groups.map((g) => (
            <li>
              <strong>{g.name}</strong>: {g.endpoints.map((e) => (e.name === undefined ? e.url : `${e.name} ${e.url}`)).join(', ')}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
