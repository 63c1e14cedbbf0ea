// A key's time to live: shown, set in seconds (EXPIRE) or removed (PERSIST).

import { useState } from 'preact/hooks';
import { errorText, kv } from './api';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';
import type { KeyProps } from './key-view';

function describe(ttlMs: number): string {
  if (ttlMs === -1) return 'no expiry';
  if (ttlMs === -2) return 'gone';
  return `expires in ${(ttlMs / 1000).toFixed(ttlMs < 10_000 ? 1 : 0)} s`;
}

export function TtlEditor(props: KeyProps & { ttlMs: number; onChanged: () => void }) {
  const [seconds, setSeconds] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, inFlight] = useInFlight();

  const run = (argv: string[]) =>
    inFlight(async () => {
      try {
        await kv(props.target, argv);
        setError(null);
        setSeconds('');
        props.onChanged();
      } catch (e) {
        setError(errorText(e));
      }
    });

  return (
    <form
      class="ttl"
      onSubmit={(e) => {
        e.preventDefault();
        void run(['EXPIRE', props.name, seconds.trim()]);
      }}
    >
      <span class="ttl-now">TTL: {describe(props.ttlMs)}</span>
      {!props.readOnly && (
        <>
          <input name="ttl" aria-label="TTL in seconds" placeholder="seconds" value={seconds} onInput={(e) => setSeconds(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>
            Set TTL
          </button>
          {props.ttlMs >= 0 && (
            <button type="button" disabled={busy} onClick={() => void run(['PERSIST', props.name])}>
              Persist
            </button>
          )}
        </>
      )}
      <FieldError error={error} />
    </form>
  );
}
