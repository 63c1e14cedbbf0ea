// A namespace's record ids: each label's id, and each id's label. A JS string per id and a Map
// entry for it cost about 170 bytes an id on Bun (1M ids of 6 characters: 106 for the strings
// and their array, 62 for the Map), a sixth of issue 20's memory bound per vector of 128
// dimensions. Here an id is its UTF-16 code units in one shared array, plus 12 bytes per label
// (where its units start, how many, its hash) and 8 of hash table (open addressing, labels,
// at most half full): about 32 bytes for a 6-character id. A string is made when an id is read.
//
// Units are appended and never written over: a frozen view (a snapshot being written in the
// background) reads the arrays it was given, whatever happens after. A removed id's units are
// taken back by moving the live ones to a new array once they are fewer than the dead ones.
// Not safe for concurrent use; the index's JS thread owns it.

/** `lengthOf` of a label holding no id; `slots` of a free slot and of a removed id's slot. */
const NONE = -1;
const REMOVED = -2;
const SMALLEST = 16;
/** Code units per String.fromCharCode call: an argument list has limits. */
const UNITS_PER_CALL = 4096;

/** The ids as they were when `frozen` was called: labels below `end`. */
export interface FrozenIds {
  readonly end: number;
  has(label: number): boolean;
  idOf(label: number): string | undefined;
}

export class IdTable {
  private units = new Uint16Array(SMALLEST * 8);
  /** Units taken in `units`, and how many of them belong to removed ids. */
  private used = 0;
  private dead = 0;
  /** Per label: where its id's units start, how many (NONE: no id), and the id's hash. */
  private startOf = new Int32Array(SMALLEST);
  private lengthOf = new Int32Array(SMALLEST).fill(NONE);
  private hashOf = new Int32Array(SMALLEST);
  /** Open addressing by hash, linear probing: a label, NONE or REMOVED. */
  private slots = new Int32Array(SMALLEST * 2).fill(NONE);
  private removedSlots = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Labels past the highest that ever held an id here, since the last clear. */
  get end(): number {
    let end = this.lengthOf.length;
    while (end > 0 && this.lengthOf[end - 1] === NONE) end--;
    return end;
  }

  /** Bytes of the live ids: their units, 12 per label and 8 of hash table (the arrays hold up to
   *  about twice that, and the units of removed ids until they are moved out). */
  get bytes(): number {
    return (this.used - this.dead) * Uint16Array.BYTES_PER_ELEMENT + this.count * 20;
  }

  labelOf(id: string): number | undefined {
    const found = this.slots[this.find(id, hash(id))];
    return found >= 0 ? found : undefined;
  }

  has(label: number): boolean {
    return label < this.lengthOf.length && this.lengthOf[label] !== NONE;
  }

  idOf(label: number): string | undefined {
    return read(this.units, this.startOf, this.lengthOf, label);
  }

  /** Files `id` under `label`; the id must be absent and the label hold none. */
  add(id: string, label: number): void {
    if (label >= this.lengthOf.length) this.growLabels(label + 1);
    if (this.used + id.length > this.units.length) this.growUnits(id.length);
    for (let i = 0; i < id.length; i++) this.units[this.used + i] = id.charCodeAt(i);
    const h = hash(id);
    this.startOf[label] = this.used;
    this.lengthOf[label] = id.length;
    this.hashOf[label] = h;
    this.used += id.length;
    const at = this.find(id, h);
    if (this.slots[at] === REMOVED) this.removedSlots--;
    this.slots[at] = label;
    this.count++;
    if ((this.count + this.removedSlots) * 2 > this.slots.length) this.rehash();
  }

  /** Removes `id`; returns the label it held, or undefined when it was absent. */
  remove(id: string): number | undefined {
    const at = this.find(id, hash(id));
    const label = this.slots[at];
    if (label < 0) return undefined;
    this.slots[at] = REMOVED;
    this.removedSlots++;
    this.count--;
    this.dead += this.lengthOf[label];
    this.lengthOf[label] = NONE;
    if (this.dead > SMALLEST * 8 && this.dead * 2 > this.used) this.moveUnits();
    return label;
  }

  /** The labels holding an id, ascending. */
  *labels(): IterableIterator<number> {
    for (let label = 0; label < this.lengthOf.length; label++) if (this.lengthOf[label] !== NONE) yield label;
  }

  /** The ids as they are now, unchanged by later writes (the arrays it reads are never written over). */
  frozen(): FrozenIds {
    const [units, startOf, lengthOf, end] = [this.units, this.startOf.slice(), this.lengthOf.slice(), this.end];
    return { end, has: (label) => label < lengthOf.length && lengthOf[label] !== NONE, idOf: (label) => read(units, startOf, lengthOf, label) };
  }

  /** The slot holding `id`, or else the slot it would take (the first removed one on its path, or the free one ending it). */
  private find(id: string, h: number): number {
    const mask = this.slots.length - 1;
    let firstRemoved = NONE;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const label = this.slots[at];
      if (label === NONE) return firstRemoved === NONE ? at : firstRemoved;
      if (label === REMOVED) {
        if (firstRemoved === NONE) firstRemoved = at;
      } else if (this.hashOf[label] === h && this.holds(label, id)) return at;
    }
  }

  private holds(label: number, id: string): boolean {
    if (this.lengthOf[label] !== id.length) return false;
    const start = this.startOf[label];
    for (let i = 0; i < id.length; i++) if (this.units[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  /** A table twice the live ids' count at least, without removed slots. */
  private rehash(): void {
    let size = this.slots.length;
    while (this.count * 4 > size) size *= 2;
    this.slots = new Int32Array(size).fill(NONE);
    this.removedSlots = 0;
    const mask = size - 1;
    for (const label of this.labels()) {
      let at = this.hashOf[label] & mask;
      while (this.slots[at] !== NONE) at = (at + 1) & mask;
      this.slots[at] = label;
    }
  }

  private growLabels(least: number): void {
    const size = Math.max(least, this.lengthOf.length * 2);
    const grown = (from: Int32Array, fill: number) => {
      const to = new Int32Array(size).fill(fill);
      to.set(from);
      return to;
    };
    this.startOf = grown(this.startOf, 0);
    this.lengthOf = grown(this.lengthOf, NONE);
    this.hashOf = grown(this.hashOf, 0);
  }

  /** A new, larger units array (frozen views keep the old one). */
  private growUnits(least: number): void {
    const units = new Uint16Array(Math.max(this.used + least, this.units.length * 2));
    units.set(this.units.subarray(0, this.used));
    this.units = units;
  }

  /** The live ids' units, moved to a new array of twice their size. */
  private moveUnits(): void {
    const live = this.used - this.dead;
    const units = new Uint16Array(Math.max(SMALLEST * 8, live * 2));
    let used = 0;
    for (const label of this.labels()) {
      const start = this.startOf[label];
      const length = this.lengthOf[label];
      units.set(this.units.subarray(start, start + length), used);
      this.startOf[label] = used;
      used += length;
    }
    this.units = units;
    this.used = used;
    this.dead = 0;
  }
}

/** FNV-1a over the UTF-16 code units. */
function hash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 1; // non-negative, so `& mask` is a slot
}

function read(units: Uint16Array, startOf: Int32Array, lengthOf: Int32Array, label: number): string | undefined {
  const length = label < lengthOf.length ? lengthOf[label] : NONE;
  if (length === NONE) return undefined;
  const start = startOf[label];
  if (length <= UNITS_PER_CALL) return String.fromCharCode.apply(null, units.subarray(start, start + length) as unknown as number[]);
  let id = '';
  for (let at = 0; at < length; at += UNITS_PER_CALL) {
    id += String.fromCharCode.apply(null, units.subarray(start + at, start + Math.min(length, at + UNITS_PER_CALL)) as unknown as number[]);
  }
  return id;
}
