// A stream partition's messages from an offset or a time (POST /fetch, no consumer group). A
// time is turned into an offset by the server (/offsets/<ms>): text that is neither a number
// nor a date goes to it as typed, so the server's own error is shown.

import { useState } from 'preact/hooks';
import { call } from './api';
import { FieldError } from './field-error';
import { useSubmit } from './form-submit';
import type { Position } from './streams-page';

interface Message extends Position {
  timestamp: number;
  key: string | null;
  value: string;
}

export function MessageBrowser(props: { url: string; auth: string; topics: readonly string[] }) {
  const [topic, setTopic] = useState('');
  const [partition, setPartition] = useState('0');
  const [offset, setOffset] = useState('0');
  const [messages, setMessages] = useState<Message[] | null>(null);
  const { busy, error, submit: browse } = useSubmit(async () => {
    const tp = { topic: topic || props.topics[0], partition: Number(partition) };
    let from = offset.trim();
    if (!/^\d+$/.test(from)) {
      const ms = Date.parse(from);
      const at = await call<Position[]>(`${props.url}/offsets/${encodeURIComponent(Number.isNaN(ms) ? from : String(ms))}`, props.auth, 'POST', tp);
      from = String(at[0].offset);
    }
    const body = { ...tp, offset: Number(from), timeout: 0 };
    setMessages(await call<Message[]>(`${props.url}/fetch`, props.auth, 'POST', body));
  });

  return (
    <section aria-label="Message browser">
      <h2>Messages</h2>
      <form class="add" onSubmit={browse}>
        <select name="browse-topic" aria-label="Topic" value={topic || props.topics[0]} onChange={(e) => setTopic(e.currentTarget.value)}>
          {props.topics.map((t) => (
            <option value={t}>{t}</option>
          ))}
        </select>
        <input name="browse-partition" aria-label="Partition" value={partition} onInput={(e) => setPartition(e.currentTarget.value)} />
        <input name="browse-offset" aria-label="From offset or time" placeholder="offset or time" value={offset} onInput={(e) => setOffset(e.currentTarget.value)} />
        <button type="submit" disabled={busy || props.topics.length === 0}>
          Fetch
        </button>
      </form>
      <FieldError error={error} />
      {messages !== null && (
        <table class="entries" aria-label="Messages">
          <thead>
            <tr>
              <th>offset</th>
              <th>time</th>
              <th>key</th>
              <th>value</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <tr>
                <td>{m.offset}</td>
                <td>{new Date(m.timestamp).toISOString()}</td>
                <td>{m.key ?? ''}</td>
                <td>{m.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
