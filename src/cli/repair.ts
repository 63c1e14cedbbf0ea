// `larder repair [--config FILE] [--data-dir DIR]`: with Larder stopped, sets aside what is
// damaged in the data dir's logs and snapshots (storage/repair.ts) and prints, per file, what it
// kept and what it moved to a quarantine file. Nothing is deleted.

import { loadConfig } from '../config/load.js';
import { SNAPSHOT_FORMAT as KV_SNAPSHOT } from '../kv/index.js';
import { SNAPSHOT_FORMAT as QUEUE_SNAPSHOT } from '../queue/index.js';
import { repairDataDir, type SetAside } from '../storage/repair.js';
import { SNAPSHOT_FORMAT as VECTOR_SNAPSHOT } from '../vector/index.js';
import { parseFlags } from './flags.js';

export const REPAIR_USAGE = `usage: larder repair [--config FILE] [--data-dir DIR]

With Larder stopped, moves whatever follows the last valid record of each log and snapshot in
the data dir (damage, or a torn tail) to <file>.quarantine-<byte> beside it, keeps every record
before it, and prints what it kept and set aside. Nothing is deleted.`;

const FLAGS = new Set(['config', 'data-dir']);
/** The snapshots under each top-level folder of the data dir, by the service that owns the folder. */
const SNAPSHOT_FORMATS = { kv: KV_SNAPSHOT, vector: VECTOR_SNAPSHOT, queue: QUEUE_SNAPSHOT };

export function repairCommand(args: readonly string[]): void {
  const { flags } = parseFlags(args, FLAGS, REPAIR_USAGE);
  const { dataDir } = loadConfig(flags);
  const repaired = repairDataDir(dataDir, SNAPSHOT_FORMATS);
  for (const r of repaired) console.log(describe(r));
  console.log(repaired.length === 0 ? `nothing to repair in ${dataDir}` : `repaired ${repaired.length} file(s) in ${dataDir}; nothing was deleted`);
}

function describe(r: SetAside): string {
  return `${r.file}: kept ${r.keptRecords} record(s) before byte ${r.offset}; set aside ${r.setAsideBytes} byte(s) (${r.what}) in ${r.quarantine}`;
}
