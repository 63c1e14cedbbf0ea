// A vector index held at a key (VECTOR.*, `redis.vector`): its dimension, metric and size.
// Read-only: no command lists an index's vectors, and the app writes them.

import { useEffect, useState } from 'preact/hooks';
import { errorText, kv } from './api';
import { FieldError } from './field-error';
import type { KeyProps } from './key-view';

export function VectorKeySummary(props: KeyProps) {
  const [rows, setRows] = useState<string[][] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void (async () => {
      try {
        const info = (await kv(props.target, ['VECTOR.INFO', props.name])) as unknown[];
        const count = await kv(props.target, ['VECTOR.COUNT', props.name]);
        setRows([['dimension', String(info[1])], ['metric', String(info[3])], ['vectors', String(count)]]);
      } catch (e) {
        setError(errorText(e));
      }
    })();
  }, []);

  return (
    <div class="editor">
      {rows !== null && (
        <table class="entries" aria-label="Vector index">
          <tbody>
            {rows.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FieldError error={error} />
    </div>
  );
}
