// One key: its type and TTL, the editor for its type, and delete.

import { useEffect, useState } from 'preact/hooks';
import { errorText, kv, kvPipeline, type KvTarget } from './api';
import { CollectionEditor } from './collection-editor';
import { COLLECTIONS } from './collection-kinds';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';
import { JsonEditor } from './json-editor';
import { StringEditor } from './string-editor';
import { TtlEditor } from './ttl-editor';
import { VectorKeySummary } from './vector-key-summary';

export interface KeyProps {
  readonly target: KvTarget;
  readonly name: string;
  readonly readOnly: boolean;
}

export function KeyView(props: KeyProps & { onDeleted: () => void }) {
  const [type, setType] = useState<string | null>(null);
  const [ttlMs, setTtlMs] = useState<number>(-1);
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useInFlight();

  async function load() {
    try {
      const [t, ttl] = await kvPipeline(props.target, [
        ['TYPE', props.name],
        ['PTTL', props.name],
      ]);
      if ('error' in t) throw new Error(t.error);
      setType(t.result as string);
      setTtlMs('result' in ttl ? (ttl.result as number) : -1);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => void load(), []);

  const remove = () =>
    run(async () => {
      try {
        await kv(props.target, ['DEL', props.name]);
        props.onDeleted();
      } catch (e) {
        setError(errorText(e));
      }
    });

  const kind = type === null ? undefined : COLLECTIONS[type];
  return (
    <article class="key-view" aria-label={`Key ${props.name}`}>
      <header>
        <h2>{props.name}</h2>
        {type !== null && <span class="badge type">{type === 'ReJSON-RL' ? 'json' : type}</span>}
        {type !== null && type !== 'none' && !props.readOnly && (
          <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
            Delete
          </button>
        )}
      </header>
      <FieldError error={error} />
      {type === 'none' && <p class="empty">This key does not exist (or has expired).</p>}
      {type !== null && type !== 'none' && <TtlEditor {...props} ttlMs={ttlMs} onChanged={load} />}
      {type === 'string' && <StringEditor {...props} />}
      {type === 'ReJSON-RL' && <JsonEditor {...props} />}
      {kind !== undefined && <CollectionEditor {...props} kind={kind} />}
      {type === 'vector' && <VectorKeySummary {...props} />}
    </article>
  );
}
