// Where a remote database lives, as one URL:
//
//   redis://[user[:password]@]host[:port][/db]                 standalone
//   rediss://...                                               standalone over TLS
//   redis+cluster://[user[:password]@]host:port,host:port      Redis Cluster, from seed nodes
//   rediss+cluster://...                                       Redis Cluster over TLS
//
// User and password are percent-decoded. No I/O here: it lives in config/ because the schema
// validates kv.databases.<name>.url with it; the remote backend (kv/redis/) connects by it.

export interface RemoteTarget {
  readonly cluster: boolean;
  readonly tls: boolean;
  readonly nodes: readonly { host: string; port: number }[];
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly db: number;
}

const URL_FORM = /^(rediss?)(\+cluster)?:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#@]+)(?:\/(\d*))?$/i;
const DEFAULT_PORT = 6379;

/** Parses a backend URL; throws an Error saying what is wrong (the config schema reports it). */
export function parseRemoteUrl(url: string): RemoteTarget {
  const m = URL_FORM.exec(url);
  if (m === null) throw new Error(`'${url}' is not a redis://, rediss://, redis+cluster:// or rediss+cluster:// URL`);
  const [, scheme, cluster, user, password, hosts, db] = m;
  const nodes = hosts.split(',').map((hp) => {
    const at = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hp);
    if (at === null) throw new Error(`'${hp}' in '${url}' is not host:port`);
    const port = at[2] === undefined ? DEFAULT_PORT : Number(at[2]);
    if (port < 1 || port > 65535) throw new Error(`port ${at[2]} in '${url}' is out of range`);
    return { host: at[1].replace(/^\[|\]$/g, ''), port };
  });
  if (cluster === undefined && nodes.length > 1) throw new Error(`'${url}' names several hosts: use redis+cluster:// for a Cluster`);
  if (cluster !== undefined && db !== undefined && db !== '' && db !== '0') throw new Error('Redis Cluster has only database 0');
  return {
    cluster: cluster !== undefined,
    tls: scheme.toLowerCase() === 'rediss',
    nodes,
    username: user ? decodeURIComponent(user) : undefined,
    password: password !== undefined ? decodeURIComponent(password) : undefined,
    db: db ? Number(db) : 0,
  };
}
