// The vector page: an index's info and namespaces, its vectors a page at a time (POST /range)
// with their metadata, delete one (full console only), and a query form.

import { useEffect, useState } from 'preact/hooks';
import type { ConsoleInfo } from '../wire';
import { bearer, call, errorText } from './api';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';
import { VectorQuery } from './vector-query';

interface IndexInfo {
  vectorCount: number;
  dimension: number;
  similarityFunction: string;
  indexType: string;
  namespaces: Record<string, { vectorCount: number }>;
}

interface VectorRow {
  id: string;
  metadata?: unknown;
  data?: string;
}

const PAGE = 50;

export function VectorPage(props: { info: ConsoleInfo }) {
  const { info } = props;
  const [name, setName] = useState(info.vector[0]?.index ?? '');
  const [ns, setNs] = useState('');
  const [about, setAbout] = useState<IndexInfo | null>(null);
  const [rows, setRows] = useState<VectorRow[]>([]);
  const [cursor, setCursor] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useInFlight();
  const index = info.vector.find((v) => v.index === name);

  const nsPath = (op: string) => `${index!.url}/${op}${ns === '' ? '' : `/${encodeURIComponent(ns)}`}`;

  async function loadRange(from: string, fresh: boolean) {
    if (index === undefined) return;
    try {
      const page = (await call<{ result: { nextCursor: string; vectors: VectorRow[] } }>(nsPath('range'), bearer(index.token), 'POST', {
        cursor: from,
        limit: PAGE,
        includeMetadata: true,
        includeData: true,
      })).result;
      setRows((prev) => (fresh ? page.vectors : [...prev, ...page.vectors]));
      setCursor(page.nextCursor);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function load() {
    if (index === undefined) return;
    try {
      setAbout((await call<{ result: IndexInfo }>(`${index.url}/info`, bearer(index.token))).result);
    } catch (e) {
      setError(errorText(e));
    }
    await loadRange('0', true);
  }

  useEffect(() => void load(), [name, ns]);

  const remove = (id: string) =>
    run(async () => {
      try {
        await call(nsPath('delete'), bearer(index!.token), 'POST', [id]);
        await load();
      } catch (e) {
        setError(errorText(e));
      }
    });

  if (index === undefined) return <p class="empty">No vector index is configured.</p>;
  return (
    <div class="service-page">
      <div class="toolbar">
        <label>
          Index
          <select name="index" value={name} onChange={(e) => setName(e.currentTarget.value)}>
            {info.vector.map((v) => (
              <option value={v.index}>{v.index}</option>
            ))}
          </select>
        </label>
        <label>
          Namespace
          <select name="namespace" value={ns} onChange={(e) => setNs(e.currentTarget.value)}>
            {Object.keys(about?.namespaces ?? { '': {} }).map((n) => (
              <option value={n}>{n === '' ? '(default)' : n}</option>
            ))}
          </select>
        </label>
      </div>
      {about !== null && (
        <p class="facts" aria-label="Index info">
          {about.vectorCount} vectors · dimension {about.dimension || 'not set yet'} · {about.similarityFunction} · {about.indexType} ·{' '}
          {Object.keys(about.namespaces).length} namespace(s)
        </p>
      )}
      <FieldError error={error} />
      <table class="entries" aria-label="Vectors">
        <thead>
          <tr>
            <th>id</th>
            <th>metadata</th>
            <th>data</th>
            {!info.readOnly && <th />}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              <td>{r.id}</td>
              <td>{r.metadata === undefined ? '' : JSON.stringify(r.metadata)}</td>
              <td>{r.data ?? ''}</td>
              {!info.readOnly && (
                <td>
                  <button type="button" class="danger small" aria-label={`Delete ${r.id}`} disabled={busy} onClick={() => void remove(r.id)}>
                    ×
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p class="empty">No vectors in this namespace.</p>}
      {cursor !== '' && (
        <button type="button" onClick={() => void loadRange(cursor, false)}>
          More…
        </button>
      )}
      <VectorQuery key={`${name}/${ns}`} url={index.url} token={index.token} ns={ns} />
    </div>
  );
}
