// Where one namespace keeps its dense vectors: float32, packed in chunks, found by the record's
// label. A Float32Array of its own per vector costs about 180 bytes beside its 512 at 128
// dimensions, a view kept per record about 90, and these bytes count against issue 20's memory
// bound; here a vector costs its place and 8 bytes of address (chunk, place), and a view is made
// only when one is read.
//
// Chunks are append-only: a stored vector is never written over, so a view handed out (to an
// answer, or to a snapshot being written in the background) always reads what was stored.
// Space is taken back by moving: a chunk no longer the newest that holds half or fewer live
// vectors is given up, its live vectors are copied into the newest chunk and their addresses
// changed; the old chunk is freed by the garbage collector once no view of it is left. So at
// most about twice the live vectors are held, plus the newest chunk.
// Chunks grow from SMALLEST_CHUNK vectors, doubling, up to about CHUNK_BYTES, so a namespace
// of a few vectors holds a few. Addresses are kept per label up to the highest label stored,
// 8 bytes each; a namespace hands a deleted record's label to its next new one (free-labels.ts),
// so that is about the records' count, not all the labels ever used.
// Not safe for concurrent use; the index's JS thread owns it.

const SMALLEST_CHUNK = 16;
const CHUNK_BYTES = 1 << 20;
/** `chunkOf` of a label holding no vector. */
const NONE = -1;

interface Chunk {
  readonly vectors: Float32Array;
  /** The label stored at each place, NONE once released; `used` places are taken. */
  readonly owners: Int32Array;
  used: number;
  live: number;
}

export class VectorSlab {
  /** Chunks by number; null once given up. */
  private readonly chunks: (Chunk | null)[] = [];
  /** Per label, the number of the chunk holding its vector (NONE: none) and its place there. */
  private chunkOf = new Int32Array(SMALLEST_CHUNK).fill(NONE);
  private placeOf = new Int32Array(SMALLEST_CHUNK);
  private readonly largest: number;

  constructor(readonly dimension: number) {
    this.largest = Math.max(SMALLEST_CHUNK, Math.floor(CHUNK_BYTES / (dimension * Float32Array.BYTES_PER_ELEMENT)));
  }

  /** Bytes of the vectors stored and their addresses (chunks hold up to about twice that; see above). */
  get bytes(): number {
    let n = this.chunkOf.byteLength + this.placeOf.byteLength;
    for (const chunk of this.chunks) n += chunk === null ? 0 : chunk.live * this.dimension * Float32Array.BYTES_PER_ELEMENT;
    return n;
  }

  /** Stores a copy of `vector` (of this slab's dimension) as `label`'s, in place of any it had. */
  set(label: number, vector: Float32Array): void {
    this.delete(label);
    this.place(label, vector);
  }

  has(label: number): boolean {
    return label < this.chunkOf.length && this.chunkOf[label] !== NONE;
  }

  /** A view of `label`'s vector, or null when it has none. Valid for good: chunks are never written over. */
  get(label: number): Float32Array | null {
    return view(this.chunks, this.chunkOf, this.placeOf, this.dimension, label);
  }

  /** `get` as the slab is now, unchanged by later writes: it holds a copy of the addresses, and chunks are never written over. */
  frozen(): (label: number) => Float32Array | null {
    const [chunks, chunkOf, placeOf, dimension] = [this.chunks.slice(), this.chunkOf.slice(), this.placeOf.slice(), this.dimension];
    return (label) => view(chunks, chunkOf, placeOf, dimension, label);
  }

  /** Gives back the place of `label`'s vector, if it has one. */
  delete(label: number): void {
    const c = label < this.chunkOf.length ? this.chunkOf[label] : NONE;
    if (c === NONE) return;
    const chunk = this.chunks[c]!;
    chunk.owners[this.placeOf[label]] = NONE;
    chunk.live--;
    this.chunkOf[label] = NONE;
    if (c !== this.chunks.length - 1 && chunk.live * 2 <= chunk.owners.length) this.giveUp(c);
  }

  /** Moves the live vectors of chunk `c` into the newest chunk and forgets it. */
  private giveUp(c: number): void {
    const chunk = this.chunks[c]!;
    this.chunks[c] = null;
    for (let place = 0; place < chunk.used; place++) {
      const label = chunk.owners[place];
      if (label !== NONE) this.place(label, chunk.vectors.subarray(place * this.dimension, (place + 1) * this.dimension));
    }
  }

  private place(label: number, vector: Float32Array): void {
    let c = this.chunks.length - 1;
    if (c < 0 || this.chunks[c]!.used === this.chunks[c]!.owners.length) c = this.grow();
    const chunk = this.chunks[c]!;
    const place = chunk.used++;
    chunk.live++;
    chunk.owners[place] = label;
    chunk.vectors.set(vector, place * this.dimension);
    this.address(label, c, place);
  }

  private address(label: number, chunk: number, place: number): void {
    if (label >= this.chunkOf.length) {
      const size = Math.max(label + 1, this.chunkOf.length * 2);
      const chunkOf = new Int32Array(size).fill(NONE);
      chunkOf.set(this.chunkOf);
      const placeOf = new Int32Array(size);
      placeOf.set(this.placeOf);
      this.chunkOf = chunkOf;
      this.placeOf = placeOf;
    }
    this.chunkOf[label] = chunk;
    this.placeOf[label] = place;
  }

  /** Starts a new newest chunk; the one before it is given up if half empty already. Returns its number. */
  private grow(): number {
    const before = this.chunks.length - 1;
    const size = before < 0 ? SMALLEST_CHUNK : Math.min(this.largest, this.chunks[before]!.owners.length * 2);
    this.chunks.push({ vectors: new Float32Array(size * this.dimension), owners: new Int32Array(size).fill(NONE), used: 0, live: 0 });
    const prior = before < 0 ? null : this.chunks[before];
    // Its live vectors fit in the new chunk: at most half its size, which is at most the new one's.
    if (prior !== null && prior.live * 2 <= prior.owners.length) this.giveUp(before);
    return this.chunks.length - 1;
  }
}

/** A view of `label`'s vector through these addresses, or null when it has none. */
function view(chunks: readonly (Chunk | null)[], chunkOf: Int32Array, placeOf: Int32Array, dimension: number, label: number): Float32Array | null {
  const c = label < chunkOf.length ? chunkOf[label] : NONE;
  if (c === NONE) return null;
  const at = placeOf[label] * dimension;
  return chunks[c]!.vectors.subarray(at, at + dimension);
}
