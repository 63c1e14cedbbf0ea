// A string value: shown as text and saved with SET ... KEEPTTL, so editing keeps the TTL.

import { kv } from './api';
import type { KeyProps } from './key-view';
import { TextValueEditor } from './text-value-editor';

export function StringEditor(props: KeyProps) {
  return (
    <TextValueEditor
      name="value"
      label="Value"
      rows={8}
      readOnly={props.readOnly}
      load={async () => ((await kv(props.target, ['GET', props.name])) as string | null) ?? ''}
      save={(text) => kv(props.target, ['SET', props.name, text, 'KEEPTTL'])}
    />
  );
}
