// The queue's schedules (GET /v2/schedules), each with pause or resume, and a form making one
// (full console only).

import { useEffect, useState } from 'preact/hooks';
import { bearer, call, errorText } from './api';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';
import { ScheduleForm } from './schedule-form';

interface Schedule {
  scheduleId: string;
  cron: string;
  destination: string;
  isPaused: boolean;
  nextScheduleTime?: number;
}

export function ScheduleList(props: { url: string; token: string; readOnly: boolean }) {
  const [schedules, setSchedules] = useState<Schedule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useInFlight();

  async function load() {
    try {
      setSchedules(await call<Schedule[]>(`${props.url}/v2/schedules`, bearer(props.token)));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => void load(), []);

  const toggle = (s: Schedule) =>
    run(async () => {
      try {
        await call(`${props.url}/v2/schedules/${encodeURIComponent(s.scheduleId)}/${s.isPaused ? 'resume' : 'pause'}`, bearer(props.token), 'PATCH');
        await load();
      } catch (e) {
        setError(errorText(e));
      }
    });

  return (
    <section aria-label="Schedules">
      <h2>Schedules</h2>
      <FieldError error={error} />
      {!props.readOnly && <ScheduleForm url={props.url} token={props.token} onCreated={() => void load()} />}
      {schedules !== null && schedules.length === 0 && <p class="empty">No schedules.</p>}
      {schedules !== null && schedules.length > 0 && (
        <table class="entries" aria-label="Schedule list">
          <thead>
            <tr>
              <th>id</th>
              <th>cron</th>
              <th>destination</th>
              <th>next</th>
              <th>state</th>
              {!props.readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {schedules.map((s) => (
              <tr>
                <td>{s.scheduleId}</td>
                <td>{s.cron}</td>
                <td>{s.destination}</td>
                <td>{s.nextScheduleTime === undefined ? '' : new Date(s.nextScheduleTime).toISOString()}</td>
                <td>{s.isPaused ? 'paused' : 'active'}</td>
                {!props.readOnly && (
                  <td>
                    <button type="button" disabled={busy} onClick={() => void toggle(s)}>
                      {s.isPaused ? 'Resume' : 'Pause'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
