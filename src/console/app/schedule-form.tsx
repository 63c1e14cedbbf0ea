// Creates a schedule: a destination URL and a cron (POST /v2/schedules/<destination> with
// Upstash-Cron). The server checks both, so a bad cron shows its error.

import { useState } from 'preact/hooks';
import { bearer, call } from './api';
import { FieldError } from './field-error';
import { useSubmit } from './form-submit';

export function ScheduleForm(props: { url: string; token: string; onCreated: () => void }) {
  const [destination, setDestination] = useState('');
  const [cron, setCron] = useState('');
  const { busy, error, submit: create } = useSubmit(async () => {
    await call(`${props.url}/v2/schedules/${destination}`, bearer(props.token), 'POST', undefined, { 'upstash-cron': cron });
    setDestination('');
    setCron('');
    props.onCreated();
  });

  return (
    <form class="add" onSubmit={create} aria-label="New schedule">
      <input name="schedule-destination" aria-label="Schedule destination" placeholder="https://… destination" value={destination} onInput={(e) => setDestination(e.currentTarget.value)} />
      <input name="schedule-cron" aria-label="Cron" placeholder="cron, e.g. */5 * * * *" value={cron} onInput={(e) => setCron(e.currentTarget.value)} />
      <button type="submit" disabled={busy || destination === '' || cron === ''}>
        Create schedule
      </button>
      <FieldError error={error} />
    </form>
  );
}
