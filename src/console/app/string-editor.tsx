// A string value: shown as text and saved with SET ... KEEPTTL, so editing keeps the TTL.

import { useEffect, useState } from 'preact/hooks';
import { errorText, kv } from './api';
import { FieldError } from './field-error';
import type { KeyProps } from './key-view';

export function StringEditor(props: KeyProps) {
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    kv(props.target, ['GET', props.name]).then(
      (v) => setValue((v as string | null) ?? ''),
      (e) => setError(errorText(e)),
    );
  }, []);

  async function save(e: Event) {
    e.preventDefault();
    try {
      await kv(props.target, ['SET', props.name, value ?? '', 'KEEPTTL']);
      setError(null);
      setSaved(true);
    } catch (err) {
      setError(errorText(err));
    }
  }

  if (value === null) return <FieldError error={error} />;
  return (
    <form class="editor" onSubmit={save}>
      <textarea
        name="value"
        aria-label="Value"
        rows={8}
        readOnly={props.readOnly}
        value={value}
        onInput={(e) => {
          setValue(e.currentTarget.value);
          setSaved(false);
        }}
      />
      <FieldError error={error} />
      {!props.readOnly && (
        <div class="actions">
          <button type="submit">Save</button>
          {saved && <span class="ok">Saved</span>}
        </div>
      )}
    </form>
  );
}
