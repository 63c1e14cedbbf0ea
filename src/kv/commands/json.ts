// JSON documents (RedisJSON 2.x's command set, as Upstash serves it): the family's
// declarations. Handlers live in json/; the document model, JSONPath and the value kind
// (ReJSON-RL, tag 6) in engine/json/.

import { jsonArrappendCommand, jsonArrinsertCommand, jsonArrpopCommand, jsonArrtrimCommand } from './json/array.js';
import {
  jsonArrindexCommand,
  jsonArrlenCommand,
  jsonGetCommand,
  jsonMgetCommand,
  jsonObjkeysCommand,
  jsonObjlenCommand,
  jsonRespCommand,
  jsonStrlenCommand,
  jsonTypeCommand,
} from './json/read.js';
import { jsonNumincrbyCommand, jsonNummultbyCommand, jsonStrappendCommand, jsonToggleCommand } from './json/update.js';
import { jsonClearCommand, jsonDelCommand, jsonMergeCommand, jsonMsetCommand, jsonSetCommand } from './json/write.js';
import { forgetPrinted, readDoc } from './json/doc.js';
import { JsonDoc } from '../engine/json/json-doc.js';
import type { JsonValue } from '../engine/json/json-value.js';
import { boundedWork } from '../engine/json/json-work.js';
import { family, keysOf, ONE_KEY, type CommandSpec, type Ctx, type Flag } from './spec.js';

const WRITE: readonly Flag[] = ['write'];
const READ: readonly Flag[] = ['readonly'];

/**
 * Every JSON command runs within its bound of work (json-work.ts), counted against the
 * documents at its keys. A write changes its documents in place: each forgets the text it
 * printed (json-doc.ts) first.
 */
function jsonCommand(spec: CommandSpec): CommandSpec {
  const writes = spec.flags.includes('write');
  return {
    ...spec,
    run(ctx, argv) {
      const keys = keysOf(spec, argv);
      if (writes) for (const key of keys) forgetPrinted(ctx, key);
      return boundedWork(() => documentsAt(ctx, keys), () => spec.run(ctx, argv));
    },
  };
}

function documentsAt(ctx: Ctx, keys: readonly string[]): JsonValue[] {
  const roots: JsonValue[] = [];
  for (const key of keys) {
    const doc = readDoc(ctx, key);
    if (doc instanceof JsonDoc) roots.push(doc.root);
  }
  return roots;
}

// RedisJSON's commands carry its own @json ACL category, which Redis 7.0's category list
// lacks; they get @read or @write (and @slow) from their flags.
export default family('json', null, [
  { name: 'json.set', arity: -4, flags: WRITE, keys: ONE_KEY, run: jsonSetCommand },
  { name: 'json.get', arity: -2, flags: READ, keys: ONE_KEY, run: jsonGetCommand },
  { name: 'json.mget', arity: -3, flags: READ, keys: { first: 1, last: -2, step: 1 }, run: jsonMgetCommand },
  { name: 'json.mset', arity: -4, flags: WRITE, keys: { first: 1, last: -1, step: 3 }, run: jsonMsetCommand },
  { name: 'json.merge', arity: -4, flags: WRITE, keys: ONE_KEY, run: jsonMergeCommand },
  { name: 'json.del', arity: -2, flags: WRITE, keys: ONE_KEY, run: jsonDelCommand },
  { name: 'json.forget', arity: -2, flags: WRITE, keys: ONE_KEY, run: jsonDelCommand },
  { name: 'json.clear', arity: -2, flags: WRITE, keys: ONE_KEY, run: jsonClearCommand },
  { name: 'json.type', arity: -2, flags: READ, keys: ONE_KEY, run: jsonTypeCommand },
  { name: 'json.resp', arity: -2, flags: READ, keys: ONE_KEY, run: jsonRespCommand },
  { name: 'json.toggle', arity: 3, flags: WRITE, keys: ONE_KEY, run: jsonToggleCommand },
  { name: 'json.numincrby', arity: 4, flags: WRITE, keys: ONE_KEY, run: jsonNumincrbyCommand },
  { name: 'json.nummultby', arity: 4, flags: WRITE, keys: ONE_KEY, run: jsonNummultbyCommand },
  { name: 'json.strappend', arity: -3, flags: WRITE, keys: ONE_KEY, run: jsonStrappendCommand },
  { name: 'json.strlen', arity: -2, flags: READ, keys: ONE_KEY, run: jsonStrlenCommand },
  { name: 'json.objkeys', arity: -2, flags: READ, keys: ONE_KEY, run: jsonObjkeysCommand },
  { name: 'json.objlen', arity: -2, flags: READ, keys: ONE_KEY, run: jsonObjlenCommand },
  { name: 'json.arrappend', arity: -4, flags: WRITE, keys: ONE_KEY, run: jsonArrappendCommand },
  { name: 'json.arrindex', arity: -4, flags: READ, keys: ONE_KEY, run: jsonArrindexCommand },
  { name: 'json.arrinsert', arity: -5, flags: WRITE, keys: ONE_KEY, run: jsonArrinsertCommand },
  { name: 'json.arrlen', arity: -2, flags: READ, keys: ONE_KEY, run: jsonArrlenCommand },
  { name: 'json.arrpop', arity: -2, flags: WRITE, keys: ONE_KEY, run: jsonArrpopCommand },
  { name: 'json.arrtrim', arity: 5, flags: WRITE, keys: ONE_KEY, run: jsonArrtrimCommand },
].map(jsonCommand));
