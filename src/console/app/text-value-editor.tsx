// A value edited as text in one textarea: loaded once, saved whole; the server's error shows
// under the text. The string and JSON editors differ only in how they load and save.

import { useEffect, useState } from 'preact/hooks';
import { errorText } from './api';
import { FieldError } from './field-error';
import { useSubmit } from './form-submit';

export interface TextValueProps {
  readonly name: string;
  readonly label: string;
  readonly rows: number;
  readonly readOnly: boolean;
  load(): Promise<string>;
  save(text: string): Promise<unknown>;
}

export function TextValueEditor(props: TextValueProps) {
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const { busy, error, setError, submit: save } = useSubmit(
    async () => {
      await props.save(text ?? '');
      setSaved(true);
    },
    () => setSaved(false),
  );

  useEffect(() => {
    props.load().then(setText, (e) => setError(errorText(e)));
  }, []);

  if (text === null) return <FieldError error={error} />;
  return (
    <form class="editor" onSubmit={save}>
      <textarea
        name={props.name}
        aria-label={props.label}
        rows={props.rows}
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
          <button type="submit" disabled={busy}>
            Save
          </button>
          {saved && <span class="ok">Saved</span>}
        </div>
      )}
    </form>
  );
}
