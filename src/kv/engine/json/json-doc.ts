// A key holding a JSON document (RedisJSON's ReJSON-RL type). The container owns the root
// value, which a command may replace whole (JSON.SET at '$'). Serialized (DUMP, snapshots)
// as its compact JSON text in UTF-8, which keeps integers and floats apart ("3" vs "3.0").
// Not safe for concurrent use, and needs none.

import { utf8Bytes, utf8Text } from '../../bytes.js';
import { ROBJ, sdsSize } from '../redis-memory.js';
import { registerKind, type Container, type ContainerKind } from '../value.js';
import { formatJson } from './json-format.js';
import { parseJson } from './json-parse.js';
import { cloneJson, MAX_DOCUMENT_DEPTH, type JsonValue } from './json-value.js';

export class JsonDoc implements Container {
  /** The root's compact text as UTF-8 bytes, kept from the first whole read until a change. */
  private printedText: string | null = null;

  constructor(public root: JsonValue) {}

  get kind(): ContainerKind {
    return JSON_KIND;
  }

  /** The whole document as compact JSON text in UTF-8 bytes (JSON.GET of the root). */
  printed(): string {
    return (this.printedText ??= utf8Bytes(formatJson(this.root)));
  }

  /** Called before a command changes the document in place (commands/json.ts does, for every write). */
  changing(): void {
    this.printedText = null;
  }

  /** The text without keeping it: snapshots and MEMORY USAGE read every document once. */
  printedOnce(): string {
    return this.printedText ?? utf8Bytes(formatJson(this.root));
  }
}

export const JSON_KIND: ContainerKind = registerKind({
  type: 'ReJSON-RL',
  tag: 6,
  clone: (v) => new JsonDoc(cloneJson((v as JsonDoc).root)),
  encode: (v) => (v as JsonDoc).printedOnce(),
  decode(bytes) {
    const parsed = parseJson(utf8Text(bytes), MAX_DOCUMENT_DEPTH);
    return parsed.ok ? new JsonDoc(parsed.value) : null;
  },
  encoding: () => 'raw',
  // Redis 7.0 has no JSON type: the document counts as a string of its JSON text would.
  memoryUsage: (v) => ROBJ + sdsSize((v as JsonDoc).printedOnce().length),
});
