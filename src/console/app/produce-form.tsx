// Produces one message to a stream topic (POST /produce). The button waits for a value: a
// produce empties it, so the second click of a double click that lands after the answer sends
// nothing (one in flight is already refused by useSubmit).

import { useState } from 'preact/hooks';
import { call } from './api';
import { FieldError } from './field-error';
import { useSubmit } from './form-submit';

export function ProduceForm(props: { url: string; auth: string; onProduced: () => void }) {
  const [topic, setTopic] = useState('');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const { busy, error, submit: produce } = useSubmit(async () => {
    await call(`${props.url}/produce`, props.auth, 'POST', { topic, value, ...(key === '' ? {} : { key }) });
    setValue('');
    props.onProduced();
  });

  return (
    <section aria-label="Produce">
      <h2>Produce</h2>
      <form class="add" onSubmit={produce}>
        <input name="produce-topic" aria-label="Produce topic" placeholder="topic" value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
        <input name="produce-key" aria-label="Produce key" placeholder="key (optional)" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        <input name="produce-value" aria-label="Produce value" placeholder="value" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        <button type="submit" disabled={busy || value === ''}>
          Produce
        </button>
      </form>
      <FieldError error={error} />
    </section>
  );
}
