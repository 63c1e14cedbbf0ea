// A form's submit handler: the browser's own submit prevented, one request at a time
// (useInFlight), and the form's error line: cleared when `work` succeeds, the thrown error's
// text (the server's own) when it fails, after `failed` has taken back what showed the last
// success.

import { useState } from 'preact/hooks';
import { errorText } from './api';
import { useInFlight } from './in-flight';

export interface FormSubmit {
  readonly busy: boolean;
  readonly error: string | null;
  setError(error: string | null): void;
  submit(e: Event): void;
}

export function useSubmit(work: () => Promise<void>, failed?: () => void): FormSubmit {
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useInFlight();
  function submit(e: Event) {
    e.preventDefault();
    void run(async () => {
      try {
        await work();
        setError(null);
      } catch (err) {
        failed?.();
        setError(errorText(err));
      }
    });
  }
  return { busy, error, setError, submit };
}
