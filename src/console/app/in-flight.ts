// One request at a time per form, so nothing is sent twice: `run` ignores a call while the
// last one is running, checked on a ref because a second click can come before the re-render
// that disables the button; `busy` is for that `disabled`.

import { useRef, useState } from 'preact/hooks';

export function useInFlight(): [busy: boolean, run: (work: () => Promise<void>) => Promise<void>] {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  async function run(work: () => Promise<void>) {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(false);
    }
  }
  return [busy, run];
}
