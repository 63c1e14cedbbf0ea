// Keys of a database through SCAN, filtered by a MATCH pattern and a TYPE, loaded a page at a
// time as the list scrolls to its end. A read-only token may not SCAN (as on Upstash): the
// server's refusal is shown, and a key can still be opened by its name.

import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, kv, type KvTarget } from './api';
import { FieldError } from './field-error';

const TYPES = ['', 'string', 'hash', 'list', 'set', 'zset', 'ReJSON-RL', 'stream', 'array', 'vector'] as const;
/** Keys asked of each SCAN call, and how many a page should add before it stops. */
const SCAN_COUNT = '500';
const PAGE_KEYS = 100;

/** `generation` changes when keys may have changed (a command ran): the list is scanned again. */
export function KeyBrowser(props: { target: KvTarget; selected: string | null; generation: number; onOpen: (key: string) => void }) {
  const [pattern, setPattern] = useState('*');
  const [type, setType] = useState('');
  const [keys, setKeys] = useState<string[]>([]);
  const [cursor, setCursor] = useState<string>('0');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const loading = useRef(false);
  const filter = useRef({ pattern: '*', type: '' });
  /** The current scan; pages of an older one arrive too late and are dropped. */
  const scan = useRef(0);

  async function loadPage(from: string, fresh: boolean) {
    if (!fresh && loading.current) return;
    const mine = fresh ? ++scan.current : scan.current;
    loading.current = true;
    const { pattern: match, type: kind } = filter.current;
    const found: string[] = [];
    let at = from;
    try {
      do {
        const argv = ['SCAN', at, 'MATCH', match, 'COUNT', SCAN_COUNT, ...(kind === '' ? [] : ['TYPE', kind])];
        const [next, batch] = (await kv(props.target, argv)) as [string, string[]];
        found.push(...batch);
        at = next;
      } while (at !== '0' && found.length < PAGE_KEYS && mine === scan.current);
      if (mine !== scan.current) return;
      setError(null);
      setKeys((prev) => (fresh ? found : [...prev, ...found]));
      setCursor(at);
      setDone(at === '0');
    } catch (e) {
      if (mine !== scan.current) return;
      setError(errorText(e));
      setDone(true);
    } finally {
      if (mine === scan.current) loading.current = false;
    }
  }

  function rescan() {
    setKeys([]);
    setDone(false);
    void loadPage('0', true);
  }

  function search(e: Event) {
    e.preventDefault();
    filter.current = { pattern: pattern === '' ? '*' : pattern, type };
    rescan();
  }

  useEffect(rescan, [props.generation]);

  function onScroll(e: Event) {
    const el = e.currentTarget as HTMLElement;
    if (!done && el.scrollTop + el.clientHeight >= el.scrollHeight - 40) void loadPage(cursor, false);
  }

  return (
    <section class="browser">
      <form onSubmit={search} class="filters">
        <input name="pattern" aria-label="Pattern" placeholder="pattern, e.g. user:*" value={pattern} onInput={(e) => setPattern(e.currentTarget.value)} />
        <select name="type" aria-label="Type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {TYPES.map((t) => (
            <option value={t}>{t === '' ? 'any type' : t === 'ReJSON-RL' ? 'json' : t}</option>
          ))}
        </select>
        <button type="submit">Scan</button>
      </form>
      <FieldError error={error} />
      <ul class="keys" onScroll={onScroll} aria-label="Keys">
        {keys.map((k) => (
          <li key={k}>
            <button type="button" class={k === props.selected ? 'current' : ''} onClick={() => props.onOpen(k)}>
              {k}
            </button>
          </li>
        ))}
        {done && keys.length === 0 && error === null && <li class="empty">No keys match.</li>}
        {!done && keys.length > 0 && (
          <li>
            <button type="button" class="more" onClick={() => void loadPage(cursor, false)}>
              More…
            </button>
          </li>
        )}
      </ul>
      <form
        class="open-key"
        onSubmit={(e) => {
          e.preventDefault();
          const name = new FormData(e.currentTarget).get('key');
          if (typeof name === 'string' && name !== '') props.onOpen(name);
        }}
      >
        <input name="key" aria-label="Key name" placeholder="open a key by name" />
        <button type="submit">Open</button>
      </form>
    </section>
  );
}
