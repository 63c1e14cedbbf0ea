// A query against a vector index namespace: a vector as a JSON array (POST /query), or any other
// text embedded by the index's model (POST /query-data), with topK and a metadata filter. The
// server checks both, so a wrong dimension or a bad filter comes back as its error.

import { useState } from 'preact/hooks';
import { bearer, call } from './api';
import { FieldError } from './field-error';
import { useSubmit } from './form-submit';

interface Match {
  id: string;
  score: number;
  metadata?: unknown;
}

export function VectorQuery(props: { url: string; token: string; ns: string }) {
  const [input, setInput] = useState('');
  const [topK, setTopK] = useState('10');
  const [filter, setFilter] = useState('');
  const [matches, setMatches] = useState<Match[] | null>(null);
  const { busy, error, submit: query } = useSubmit(
    async () => {
      let vector: unknown = undefined;
      try {
        vector = JSON.parse(input);
      } catch {
        // Not JSON: text for the embedding model.
      }
      const isVector = Array.isArray(vector);
      const path = `${props.url}/${isVector ? 'query' : 'query-data'}${props.ns === '' ? '' : `/${encodeURIComponent(props.ns)}`}`;
      const body = {
        ...(isVector ? { vector } : { data: input }),
        topK: Number(topK),
        includeMetadata: true,
        ...(filter.trim() === '' ? {} : { filter }),
      };
      setMatches((await call<{ result: Match[] }>(path, bearer(props.token), 'POST', body)).result);
    },
    () => setMatches(null),
  );

  return (
    <section aria-label="Query">
      <h2>Query</h2>
      <form class="add" onSubmit={query}>
        <input name="query" aria-label="Vector or text" placeholder="[0.1, 0.2, …] or text" value={input} onInput={(e) => setInput(e.currentTarget.value)} />
        <input name="topK" aria-label="topK" value={topK} onInput={(e) => setTopK(e.currentTarget.value)} />
        <input name="filter" aria-label="Metadata filter" placeholder="filter, e.g. genre = 'drama'" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        <button type="submit" disabled={busy || input === ''}>
          Query
        </button>
      </form>
      <FieldError error={error} />
      {matches !== null && (
        <table class="entries" aria-label="Matches">
          <thead>
            <tr>
              <th>id</th>
              <th>score</th>
              <th>metadata</th>
            </tr>
          </thead>
          <tbody>
            {matches.map((m) => (
              <tr>
                <td>{m.id}</td>
                <td>{m.score.toFixed(4)}</td>
                <td>{m.metadata === undefined ? '' : JSON.stringify(m.metadata)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
