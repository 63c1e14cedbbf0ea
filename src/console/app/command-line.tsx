// A command line for one database: history (Up/Down, kept for the tab's session), completion
// of command names from the server's command table (COMMAND LIST; Tab completes), and each
// reply or error under the command that caused it.

import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, kv, type KvTarget } from './api';
import { commonPrefix, completions, splitArgs } from './command-words';
import { useInFlight } from './in-flight';

const HISTORY_KEY = 'larder.console.history';
const MAX_HISTORY = 200;
const MAX_SHOWN = 50;

interface Ran {
  readonly line: string;
  readonly output: string;
  readonly failed: boolean;
}

function loadHistory(): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(HISTORY_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

export function CommandLine(props: { target: KvTarget; onRan: () => void }) {
  const [line, setLine] = useState('');
  const [names, setNames] = useState<string[]>([]);
  const [ran, setRan] = useState<Ran[]>([]);
  const history = useRef<string[]>(loadHistory());
  const back = useRef(-1);
  const [busy, run] = useInFlight();

  useEffect(() => {
    kv(props.target, ['COMMAND', 'LIST']).then(
      (r) => setNames(r as string[]),
      () => setNames([]),
    );
  }, []);

  function submit(e: Event) {
    e.preventDefault();
    void run(async () => {
      const text = line.trim();
      if (text === '') return;
      history.current = [text, ...history.current.filter((h) => h !== text)].slice(0, MAX_HISTORY);
      sessionStorage.setItem(HISTORY_KEY, JSON.stringify(history.current));
      back.current = -1;
      setLine('');
      const argv = splitArgs(text);
      let entry: Ran;
      if (typeof argv === 'string') entry = { line: text, output: `(error) ${argv}`, failed: true };
      else {
        try {
          entry = { line: text, output: JSON.stringify(await kv(props.target, argv), null, 2), failed: false };
          props.onRan();
        } catch (err) {
          entry = { line: text, output: `(error) ${errorText(err)}`, failed: true };
        }
      }
      setRan((prev) => [entry, ...prev].slice(0, MAX_SHOWN));
    });
  }

  function onKeyDown(e: KeyboardEvent) {
    const h = history.current;
    if (e.key === 'ArrowUp' && back.current + 1 < h.length) {
      e.preventDefault();
      setLine(h[++back.current]);
    } else if (e.key === 'ArrowDown' && back.current >= 0) {
      e.preventDefault();
      back.current--;
      setLine(back.current < 0 ? '' : h[back.current]);
    } else if (e.key === 'Tab') {
      const found = completions(line, names);
      if (found.length === 0) return;
      e.preventDefault();
      setLine(found.length === 1 ? `${found[0].toUpperCase()} ` : commonPrefix(found).toUpperCase());
    }
  }

  const suggestions = completions(line, names).slice(0, 12);
  return (
    <section class="command-line">
      <form onSubmit={submit}>
        <span class="prompt">{props.target.db}&gt;</span>
        <input
          name="command"
          aria-label="Command"
          autoComplete="off"
          spellcheck={false}
          placeholder="e.g. SET greeting hello (Tab completes, Up/Down for history)"
          value={line}
          onInput={(e) => setLine(e.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" disabled={busy}>
          Run
        </button>
      </form>
      {suggestions.length > 0 && <p class="suggestions">{suggestions.join('  ')}</p>}
      <ol class="output" aria-label="Command output">
        {ran.map((r) => (
          <li class={r.failed ? 'failed' : ''}>
            <code class="line">&gt; {r.line}</code>
            <pre>{r.output}</pre>
          </li>
        ))}
      </ol>
    </section>
  );
}
