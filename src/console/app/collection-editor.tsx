// A hash, list, set, sorted set, stream or array (collection-kinds.ts says which commands): its first
// entries as a table, each with a remove button, and a form adding one entry.

import { useEffect, useState } from 'preact/hooks';
import { errorText, kv } from './api';
import { LIMIT, type CollectionKind } from './collection-kinds';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';
import type { KeyProps } from './key-view';

export function CollectionEditor(props: KeyProps & { kind: CollectionKind }) {
  const { kind } = props;
  const [rows, setRows] = useState<string[][] | null>(null);
  const [values, setValues] = useState<string[]>(kind.fields.map(() => ''));
  const [error, setError] = useState<string | null>(null);
  const [busy, inFlight] = useInFlight();

  async function load() {
    try {
      setRows(kind.rows(await kv(props.target, kind.load(props.name))));
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => void load(), []);

  /** One request at a time (a double click sends the command once); `then` runs on success. */
  const run = (argv: readonly string[], then = () => {}) =>
    inFlight(async () => {
      try {
        await kv(props.target, argv);
        setError(null);
        then();
        await load();
      } catch (e) {
        setError(errorText(e));
      }
    });

  function add(e: Event) {
    e.preventDefault();
    void run(kind.add(props.name, values), () => setValues(kind.fields.map(() => '')));
  }

  return (
    <div class="editor">
      {rows !== null && (
        <table class="entries">
          <thead>
            <tr>
              {kind.columns.map((c) => (
                <th>{c}</th>
              ))}
              {!props.readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              // The first column is unique in every kind: field, index, member or entry id.
              <tr key={row[0]}>
                {row.map((cell) => (
                  <td>{cell}</td>
                ))}
                {!props.readOnly && (
                  <td>
                    <button type="button" class="danger small" aria-label={`Remove ${row[0]}`} disabled={busy} onClick={() => void run(kind.remove(props.name, row))}>
                      ×
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows !== null && rows.length >= LIMIT && <p class="hint">The first {LIMIT} entries are shown.</p>}
      {!props.readOnly && (
        <form class="add" onSubmit={add}>
          {kind.fields.map((f, i) => (
            <input
              name={f}
              aria-label={`New ${f}`}
              placeholder={f}
              value={values[i]}
              onInput={(e) => {
                const next = [...values];
                next[i] = e.currentTarget.value;
                setValues(next);
              }}
            />
          ))}
          {/* Waits for input: an add empties the fields, so a double click's late second click adds nothing. */}
          <button type="submit" disabled={busy || values.every((v) => v === '')}>
            Add
          </button>
        </form>
      )}
      <FieldError error={error} />
    </div>
  );
}
