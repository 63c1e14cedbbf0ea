// The small JSON files Larder keeps whole (secrets, topics, ACL users): written atomically
// (atomic-file.ts), so one that does not parse was changed by something else, a disk fault or
// an editor. Starting on it would lose what it holds, so the start stops and says which file.

import { readFileSync } from 'node:fs';
import { CorruptDataError } from './errors.js';

/** `text`, read from `path`, parsed; damage stops the start, saying what to do (`remedy`). */
export function parseStoredJson(path: string, text: string, remedy: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CorruptDataError(`${path} is damaged (${(e as Error).message}); ${remedy}`);
  }
}

/** The parsed file, or undefined when there is none yet. */
export function readJsonFile(path: string, remedy: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return parseStoredJson(path, text, remedy);
}
