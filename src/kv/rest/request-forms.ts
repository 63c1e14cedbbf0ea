// The three ways a command arrives, and the batch form, turned into argv byte strings.
//   1. path segments:              /set/key/value
//   2. path plus body value:       POST /set/key?EX=100  (body = value; query pairs follow it)
//   3. JSON array body:            POST /  ["set", "key", "value"]
//   batch:                         POST /pipeline or /multi-exec  [["set","k","v"], ["get","k"]]
// Forms 3 and batch are parsed by json-args.ts.

import { fromBuffer } from '../bytes.js';
import type { Args } from '../commands/spec.js';
import { percentDecode, queryPairs } from '../../server/url.js';

const TOKEN_PARAM = '_token';

/**
 * Form 1, and form 2 when `body` is given. Each query pair adds its name and then its value;
 * a name without '=' (`?NX`) adds the name alone. `_token` is a credential, not an argument.
 */
export function pathCommand(segments: readonly string[], from: number, query: string, body: Uint8Array | null): Args {
  const argv: string[] = [];
  for (let i = from; i < segments.length; i++) argv.push(percentDecode(segments[i]));
  if (body !== null && body.length > 0) argv.push(fromBuffer(body));
  if (query !== '') {
    for (const [name, value] of queryPairs(query)) {
      if (name === TOKEN_PARAM) continue;
      argv.push(name);
      if (value !== undefined) argv.push(value);
    }
  }
  return argv;
}
