// The interface the REST surface runs commands through. The embedded engine (engine/) and
// the remote Redis backend (redis/) both implement it; rest/ knows nothing else of them.

import type { AclRegistry } from './acl/registry.js';
import type { Args, Caller } from './commands/spec.js';
import type { PubSubClient } from './engine/pubsub/hub.js';
import type { ReplyError } from './errors.js';
import type { Reply } from './reply.js';

export type { PubSubClient };

export interface KvBackend {
  readonly acl: AclRegistry;
  /** Runs one command. */
  execute(argv: Args, caller: Caller): Reply | Promise<Reply>;
  /** Runs commands in order, not atomically; one reply each. */
  pipeline(commands: readonly Args[], caller: Caller): Reply[] | Promise<Reply[]>;
  /** Runs commands atomically, or refuses them all with one error (syntax, unsupported). */
  transaction(commands: readonly Args[], caller: Caller): Reply[] | ReplyError | Promise<Reply[] | ReplyError>;
  /**
   * Runs SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE or MONITOR for a streaming client: the confirmations
   * and then every event go to `client.send`, until the returned function ends them all.
   * A remote backend settles once the server has confirmed the subscriptions.
   */
  stream(argv: Args, caller: Caller, client: PubSubClient): (() => void) | ReplyError | Promise<(() => void) | ReplyError>;
  /** Changes after every write; sent as `upstash-sync-token`. */
  syncToken(): string;
  close(): Promise<void>;
}
