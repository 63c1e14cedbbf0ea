// Changes at concrete locations (the `at` of a path match): replacing, removing and adding
// members, RFC 7396 merge patches, and the order in which several removals must happen so
// that removing one does not move another (RedisJSON's prepare_paths_for_deletion).

import { cloneJson, type JsonObject, type JsonValue, type PathKey } from './json-value.js';

/** The container holding the value at `at` and its key there; undefined for the root or a location gone. */
function parentOf(root: JsonValue, at: readonly PathKey[]): { parent: JsonObject | JsonValue[]; key: PathKey } | undefined {
  if (at.length === 0) return undefined;
  const parent = valueAt(root, at.slice(0, -1));
  const key = at[at.length - 1];
  if (!(parent instanceof Map || Array.isArray(parent)) || step(parent, key) === undefined) return undefined;
  return { parent, key };
}

/** The value at `at`; undefined when the location does not exist. */
export function valueAt(root: JsonValue, at: readonly PathKey[]): JsonValue | undefined {
  let v: JsonValue | undefined = root;
  for (const key of at) v = step(v, key);
  return v;
}

function step(v: JsonValue | undefined, key: PathKey): JsonValue | undefined {
  if (v instanceof Map && typeof key === 'string') return v.get(key);
  if (Array.isArray(v) && typeof key === 'number') return v[key];
  return undefined;
}

/** Replaces the value at `at` (not the root); false when the location no longer exists. */
export function replaceAt(root: JsonValue, at: readonly PathKey[], value: JsonValue): boolean {
  const p = parentOf(root, at);
  if (p === undefined) return false;
  if (p.parent instanceof Map) p.parent.set(p.key as string, value);
  else p.parent[p.key as number] = value;
  return true;
}

/** Removes the value at `at` (not the root); false when the location no longer exists. */
export function removeAt(root: JsonValue, at: readonly PathKey[]): boolean {
  const p = parentOf(root, at);
  if (p === undefined) return false;
  if (p.parent instanceof Map) p.parent.delete(p.key as string);
  else p.parent.splice(p.key as number, 1);
  return true;
}

/**
 * The locations to remove, ordered so each removal leaves the others valid: within an array
 * higher indexes first, each once, and none inside another one being removed.
 */
export function removalOrder(locations: readonly (readonly PathKey[])[]): (readonly PathKey[])[] {
  const unique = new Map(locations.map((at) => [JSON.stringify(at), at]));
  // Inside another one when one of its own prefixes is a location too (looked up, not searched: $[*] matches many).
  const inside = (at: readonly PathKey[]) => {
    for (let d = 0; d < at.length; d++) if (unique.has(JSON.stringify(at.slice(0, d)))) return true;
    return false;
  };
  return [...unique.values()].filter((at) => !inside(at)).sort(compareForRemoval);
}

function compareForRemoval(a: readonly PathKey[], b: readonly PathKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    if (typeof x === 'number') return 1;
    if (typeof y === 'number') return -1;
    return x < y ? -1 : 1;
  }
  return b.length - a.length; // deeper first
}

/** RFC 7396: `patch` merged into `target`; a null member removes the key. Returns the result. */
export function mergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!(patch instanceof Map)) return cloneJson(patch);
  const out: JsonObject = target instanceof Map ? target : new Map();
  for (const [k, v] of patch) {
    if (v === null) out.delete(k);
    else {
      const cur = out.get(k);
      out.set(k, mergePatch(cur === undefined ? null : cur, v));
    }
  }
  return out;
}
