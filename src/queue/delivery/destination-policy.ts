// Which destinations the queue may call: queue.denyDestinations and queue.allowDestinations
// (host names, `*.example.com` for any subdomain, IP addresses or CIDR ranges), and
// queue.production, which refuses loopback, private, link-local and other non-public
// addresses so a publisher cannot make the server call into its own network. Checked at
// publish (a 400) and again before every attempt, since what a name resolves to may change.
// A name is resolved only when some rule needs addresses (production, or an IP/CIDR rule),
// so the default (everything allowed, loopback included, for local development) costs nothing.
// Between the check and the request the name is resolved once more by fetch; that window is
// accepted (fetch cannot be given an address on both runtimes).

import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { parseDestinationRule, type DestinationRule } from '../../config/destination-rule.js';

export interface DestinationRules {
  allow: readonly string[];
  deny: readonly string[];
  production: boolean;
}

/** Why a destination is refused; `transient` when its name could not be resolved (worth a retry). */
export interface Refusal {
  why: string;
  transient: boolean;
}

/** Loopback, private, link-local, shared, multicast and reserved ranges: what production refuses. */
const NOT_PUBLIC: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export class DestinationPolicy {
  private readonly allowHosts: DestinationRule[];
  private readonly denyHosts: DestinationRule[];
  private readonly allowNets: BlockList | null;
  private readonly denyNets: BlockList | null;
  private readonly notPublic: BlockList | null;

  /** Rules are validated by the config schema; a malformed one here is a bug. */
  constructor(
    private readonly rules: DestinationRules,
    private readonly resolve: Resolve = resolveAll,
  ) {
    const parse = (list: readonly string[]) =>
      list.map((t) => {
        const r = parseDestinationRule(t);
        if (typeof r === 'string') throw new Error(r);
        return r;
      });
    const allow = parse(rules.allow);
    const deny = parse(rules.deny);
    this.allowHosts = allow.filter((r) => r.kind === 'host');
    this.denyHosts = deny.filter((r) => r.kind === 'host');
    this.allowNets = blockList(allow.flatMap((r) => (r.kind === 'net' ? [[r.address, r.prefix, r.family] as const] : [])));
    this.denyNets = blockList(deny.flatMap((r) => (r.kind === 'net' ? [[r.address, r.prefix, r.family] as const] : [])));
    this.notPublic = rules.production ? blockList(NOT_PUBLIC) : null;
  }

  /** null when `url` may be called. */
  async check(url: string): Promise<Refusal | null> {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    } catch {
      return { why: 'it is not a valid URL', transient: false };
    }
    const refuse = (why: string): Refusal => ({ why, transient: false });
    if (this.denyHosts.some((r) => hostMatches(r, host))) return refuse(`${host} is denied by queue.denyDestinations`);
    // Resolved at most once, and only when a rule needs addresses.
    let addresses: string[] | Refusal | undefined;
    const resolved = async (): Promise<string[] | Refusal> => {
      if (addresses !== undefined) return addresses;
      try {
        addresses = isIP(host) !== 0 ? [host] : await this.resolve(host);
        if (addresses.length === 0) addresses = { why: `${host} resolves to no address`, transient: true };
      } catch (e) {
        addresses = { why: `${host} could not be resolved (${(e as { code?: string }).code ?? (e as Error).message})`, transient: true };
      }
      return addresses;
    };
    const named = (a: string, what: string) => (a === host ? `${host} ${what}` : `${host} resolves to ${a}, which ${what}`);
    if (this.denyNets !== null) {
      const all = await resolved();
      if (!Array.isArray(all)) return all;
      const hit = all.find((a) => contains(this.denyNets!, a));
      if (hit !== undefined) return refuse(named(hit, 'is denied by queue.denyDestinations'));
    }
    if (this.rules.allow.length > 0 && !this.allowHosts.some((r) => hostMatches(r, host))) {
      const all = this.allowNets === null ? [] : await resolved();
      if (!Array.isArray(all)) return all;
      if (all.length === 0 || !all.every((a) => contains(this.allowNets!, a))) return refuse(`${host} is not in queue.allowDestinations`);
    }
    if (this.notPublic !== null) {
      const all = await resolved();
      if (!Array.isArray(all)) return all;
      const hit = all.find((a) => contains(this.notPublic!, a));
      if (hit !== undefined) return refuse(named(hit, 'is a loopback, private or link-local address (queue.production)'));
    }
    return null;
  }
}

function hostMatches(r: DestinationRule, host: string): boolean {
  if (r.kind !== 'host') return false;
  return r.subdomains ? host.endsWith(`.${r.name}`) : host === r.name;
}

function blockList(nets: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[]): BlockList | null {
  if (nets.length === 0) return null;
  const b = new BlockList();
  for (const [address, prefix, family] of nets) b.addSubnet(address, prefix, family);
  return b;
}

const contains = (b: BlockList, address: string) => b.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
