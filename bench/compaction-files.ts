// What a service's data directory shows of its compaction, for the "during compaction" rows
// (kv-scale.ts, queue-compaction.ts): how much log a restart would replay, and whether a
// snapshot is being written (its temp file, storage/generations.ts).

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes of the log files in `dir`. */
export const logBytes = (dir: string): number => readdirSync(dir).reduce((n, f) => n + (f.startsWith('log-') ? statSync(join(dir, f)).size : 0), 0);

/** Whether a compaction is writing its snapshot in `dir`. */
export const compacting = (dir: string): boolean => readdirSync(dir).some((f) => f.endsWith('.tmp'));
