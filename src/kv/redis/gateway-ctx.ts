// Where a remote database runs the commands flagged 'gateway' (ACL users and REST tokens):
// they act on Larder's own state, never on the Redis behind it, so they run here, through the
// same handlers as the embedded engine. Their handlers touch no keys, channels or scripts; the
// keyspace, pub/sub hub and scripting are empty stand-ins. Touched from the JS thread only.

import type { AclRegistry } from '../acl/registry.js';
import type { Args, Caller, Command, Ctx, ServerStats } from '../commands/spec.js';
import { COMMANDS } from '../commands/table.js';
import { SYSTEM_CALLER } from '../database.js';
import { Keyspace } from '../engine/keyspace.js';
import { PubSubHub } from '../engine/pubsub/hub.js';
import { KeyspaceEvents } from '../engine/pubsub/keyspace-events.js';
import { Scripting } from '../engine/scripting/scripting.js';
import type { Reply } from '../reply.js';
import { SearchRegistry } from '../search/registry.js';

export class GatewayCtx implements Ctx, ServerStats {
  readonly ks = new Keyspace(Date.now, () => {});
  readonly pubsub = new PubSubHub();
  readonly events = new KeyspaceEvents(this.pubsub); // never enabled: its commands write no keys
  readonly client = null;
  readonly scripting = new Scripting({ run: () => null, permits: () => null }, { timeMs: 0, memoryBytes: 0 }); // scripts run on the remote server
  readonly search = new SearchRegistry(this.ks); // SEARCH.* is refused before it gets here
  readonly inTransaction = false;
  readonly commands = COMMANDS;
  readonly startedAt = Date.now();
  commandsProcessed = 0;
  caller: Caller = SYSTEM_CALLER;

  constructor(
    readonly acl: AclRegistry,
    readonly dbName: string,
    readonly runtime: string,
  ) {}

  get server(): ServerStats {
    return this;
  }

  rewrite(): void {}

  writesSynced(): boolean {
    return true; // its commands (ACL) write no log of keys
  }

  run(cmd: Command, argv: Args, caller: Caller): Reply {
    this.caller = caller;
    this.commandsProcessed++;
    return cmd.run(this, argv);
  }
}
