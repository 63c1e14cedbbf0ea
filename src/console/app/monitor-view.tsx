// The live /monitor stream of one database: every command it runs, as server-sent events read
// with fetch (so the token goes in a header, not the URL). The newest lines come first.

import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type KvTarget } from './api';
import { FieldError } from './field-error';

const KEEP = 500;

export function MonitorView(props: { target: KvTarget }) {
  const [lines, setLines] = useState<string[]>([]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  async function start() {
    const ctl = new AbortController();
    abort.current = ctl;
    setRunning(true);
    setError(null);
    try {
      const res = await fetch(`${props.target.url}/monitor`, { headers: { authorization: `Bearer ${props.target.token}` }, signal: ctl.signal });
      if (!res.ok || res.body === null) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        throw new Error(body.error ?? `${res.status} ${res.statusText}`);
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let pending = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending += value;
        const events = pending.split('\n\n');
        pending = events.pop() ?? '';
        const got = events.map((ev) =>
          ev
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n'),
        );
        if (got.length > 0) setLines((prev) => [...got.reverse(), ...prev].slice(0, KEEP));
      }
    } catch (e) {
      if (!ctl.signal.aborted) setError(errorText(e));
    } finally {
      setRunning(false);
    }
  }

  function stop() {
    abort.current?.abort();
    abort.current = null;
  }

  return (
    <section class="monitor">
      <div class="actions">
        {running ? (
          <button type="button" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={() => void start()}>
            Start monitor
          </button>
        )}
        <button type="button" onClick={() => setLines([])}>
          Clear
        </button>
        {running && <span class="ok">live</span>}
      </div>
      <FieldError error={error} />
      <ol class="output" aria-label="Monitor output">
        {lines.map((l) => (
          <li>
            <code>{l}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}
