// A JSON document: shown indented and saved whole with JSON.SET key $; the server parses it,
// so malformed JSON comes back as the server's error, shown under the text.

import { kv } from './api';
import type { KeyProps } from './key-view';
import { TextValueEditor } from './text-value-editor';

function indent(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function JsonEditor(props: KeyProps) {
  return (
    <TextValueEditor
      name="json"
      label="JSON document"
      rows={12}
      readOnly={props.readOnly}
      load={async () => indent(((await kv(props.target, ['JSON.GET', props.name])) as string | null) ?? 'null')}
      save={(text) => kv(props.target, ['JSON.SET', props.name, '$', text])}
    />
  );
}
