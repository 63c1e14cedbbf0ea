// The shell: logs in with an admin token, loads /console/api/info, and shows the page the URL
// hash names (#/kv, #/metrics).

import { useEffect, useState } from 'preact/hooks';
import type { ConsoleInfo } from '../wire';
import { adminGet, errorText, session } from './api';
import { KvPage } from './kv-page';
import { Login } from './login';
import { MetricsPage } from './metrics-page';
import { QueuePage } from './queue-page';
import { StreamsPage } from './streams-page';
import { VectorPage } from './vector-page';

const PAGES = { kv: 'Key-value', streams: 'Streams', vector: 'Vector', queue: 'Queue', metrics: 'Metrics' } as const;
type Page = keyof typeof PAGES;

function pageOf(hash: string): Page {
  const name = hash.replace(/^#\/?/, '');
  return name in PAGES ? (name as Page) : 'kv';
}

export function App() {
  const [info, setInfo] = useState<ConsoleInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState<Page>(pageOf(location.hash));

  useEffect(() => {
    const onHash = () => setPage(pageOf(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    if (session.token() !== null) void login(session.token()!);
  }, []);

  async function login(token: string) {
    try {
      const got = await adminGet<ConsoleInfo>('info', token);
      session.save(token);
      setError(null);
      setInfo(got);
    } catch (e) {
      session.clear();
      setError(errorText(e));
    }
  }

  function logout() {
    session.clear();
    setInfo(null);
  }

  if (info === null) return <Login error={error} onLogin={login} />;
  return (
    <div class="shell">
      <header>
        <strong>Larder</strong>
        <nav>
          {(Object.keys(PAGES) as Page[]).map((p) => (
            <a href={`#/${p}`} class={p === page ? 'current' : ''}>
              {PAGES[p]}
            </a>
          ))}
        </nav>
        {info.readOnly && <span class="badge">read-only</span>}
        <button type="button" onClick={logout}>
          Log out
        </button>
      </header>
      <main>
        {page === 'kv' && <KvPage info={info} />}
        {page === 'streams' && <StreamsPage info={info} />}
        {page === 'vector' && <VectorPage info={info} />}
        {page === 'queue' && <QueuePage info={info} />}
        {page === 'metrics' && <MetricsPage />}
      </main>
    </div>
  );
}
