import { isIPv4, isIPv6 } from 'node:net';

/** Whether binding `host` serves only this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIPv4(host)) return host.startsWith('127.');
  if (isIPv6(host)) return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./i.test(host);
  return false;
}
