// One entry of queue.allowDestinations or queue.denyDestinations: a host name (`*.example.com`
// for any subdomain), an IP address or a CIDR range. In config/ because the schema reports a
// malformed entry at load; the queue's DestinationPolicy (queue/delivery/) applies the rules.

import { isIP } from 'node:net';

export type DestinationRule =
  | { kind: 'host'; name: string; subdomains: boolean }
  | { kind: 'net'; address: string; prefix: number; family: 'ipv4' | 'ipv6' };

const HOST = /^(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/i;

/** One allow/deny entry, or the reason it is malformed (the config schema reports it). */
export function parseDestinationRule(text: string): DestinationRule | string {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const v = isIP(address);
  if (v !== 0) {
    const bits = v === 4 ? 32 : 128;
    const prefix = slash === -1 ? bits : /^\d{1,3}$/.test(text.slice(slash + 1)) ? Number(text.slice(slash + 1)) : NaN;
    if (!(prefix >= 0 && prefix <= bits)) return `'${text}': the prefix length must be 0 to ${bits}`;
    return { kind: 'net', address, prefix, family: v === 4 ? 'ipv4' : 'ipv6' };
  }
  const m = HOST.exec(text);
  if (m === null) return `'${text}' is neither a host name (optionally *.name), an IP address nor a CIDR range`;
  return { kind: 'host', name: m[2].toLowerCase(), subdomains: m[1] !== undefined };
}
