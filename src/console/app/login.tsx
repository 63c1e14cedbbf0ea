// The token form: the admin token opens the full console, the read-only admin token a
// read-only one. The token is kept in sessionStorage, so it ends with the tab.

import { useState } from 'preact/hooks';
import { FieldError } from './field-error';
import { useInFlight } from './in-flight';

export function Login(props: { error: string | null; onLogin: (token: string) => Promise<void> }) {
  const [token, setToken] = useState('');
  const [busy, run] = useInFlight();
  function submit(e: Event) {
    e.preventDefault();
    void run(() => props.onLogin(token.trim()));
  }
  return (
    <form class="login" onSubmit={submit}>
      <h1>Larder console</h1>
      <label>
        Admin token
        <input type="password" name="token" autoComplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
      </label>
      <FieldError error={props.error} />
      <p class="hint">LARDER_ADMIN_TOKEN, or LARDER_ADMIN_READ_ONLY_TOKEN for a read-only console, as printed at start.</p>
      <button type="submit" disabled={busy || token.trim() === ''}>
        Log in
      </button>
    </form>
  );
}
