// Creates a key of any type with its first entry (a collection cannot exist empty). Collections
// use the add command of collection-kinds.ts; a string is SET NX and a JSON document JSON.SET NX,
// so an existing key is never overwritten from here.

import { useState } from 'preact/hooks';
import { kv, type Argv, type KvTarget } from './api';
import { COLLECTIONS } from './collection-kinds';
import { FieldError } from './field-error';
import { useSubmit } from './form-submit';

const TYPES = ['string', 'hash', 'list', 'set', 'zset', 'json', 'stream', 'array'] as const;
type NewType = (typeof TYPES)[number];

function fieldsOf(type: NewType): readonly string[] {
  return type === 'string' ? ['value'] : type === 'json' ? ['json'] : COLLECTIONS[type].fields;
}

function createArgv(type: NewType, key: string, values: readonly string[]): Argv {
  if (type === 'string') return ['SET', key, values[0], 'NX'];
  if (type === 'json') return ['JSON.SET', key, '$', values[0], 'NX'];
  return COLLECTIONS[type].add(key, values);
}

export function NewKeyForm(props: { target: KvTarget; onCreated: (key: string) => void; onCancel: () => void }) {
  const [type, setType] = useState<NewType>('string');
  const [key, setKey] = useState('');
  const [values, setValues] = useState<string[]>(['']);
  const { busy, error, submit: create } = useSubmit(async () => {
    // SET NX and JSON.SET NX answer nil when the key exists.
    if ((await kv(props.target, createArgv(type, key, values))) === null) throw new Error(`${key} exists already`);
    props.onCreated(key);
  });

  return (
    <form class="new-key editor" onSubmit={create} aria-label="New key">
      <h2>New key</h2>
      <label>
        Type
        <select
          name="new-type"
          value={type}
          onChange={(e) => {
            const t = e.currentTarget.value as NewType;
            setType(t);
            setValues(fieldsOf(t).map(() => ''));
          }}
        >
          {TYPES.map((t) => (
            <option value={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        Key
        <input name="new-key" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
      </label>
      {fieldsOf(type).map((f, i) => (
        <label>
          {f}
          {f === 'value' || f === 'json' ? (
            <textarea name={`new-${f}`} rows={4} value={values[i] ?? ''} onInput={(e) => setValues(values.map((v, j) => (j === i ? e.currentTarget.value : v)))} />
          ) : (
            <input name={`new-${f}`} value={values[i] ?? ''} onInput={(e) => setValues(values.map((v, j) => (j === i ? e.currentTarget.value : v)))} />
          )}
        </label>
      ))}
      <FieldError error={error} />
      <div class="actions">
        <button type="submit" disabled={busy || key === ''}>
          Create
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
