// A JSON document: shown indented and saved whole with JSON.SET key $; the server parses it,
// so malformed JSON comes back as the server's error, shown under the text.

import { useEffect, useState } from 'preact/hooks';
import { errorText, kv } from './api';
import { FieldError } from './field-error';
import type { KeyProps } from './key-view';

function indent(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function JsonEditor(props: KeyProps) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    kv(props.target, ['JSON.GET', props.name]).then(
      (v) => setText(indent((v as string | null) ?? 'null')),
      (e) => setError(errorText(e)),
    );
  }, []);

  async function save(e: Event) {
    e.preventDefault();
    try {
      await kv(props.target, ['JSON.SET', props.name, '$', text ?? '']);
      setError(null);
      setSaved(true);
    } catch (err) {
      setError(errorText(err));
      setSaved(false);
    }
  }

  if (text === null) return <FieldError error={error} />;
  return (
    <form class="editor" onSubmit={save}>
      <textarea
        name="json"
        aria-label="JSON document"
        rows={12}
        spellcheck={false}
        readOnly={props.readOnly}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
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
