// Where one namespace keeps its dense vectors: float32, packed in chunks, each record holding a
// view of its place. A Float32Array of its own per vector costs about 180 bytes beside its 512
// at 128 dimensions (a view, about 90), and these bytes count against issue 20's memory bound.
//
// Chunks are append-only: a stored vector is never written over, so a record (and a snapshot
// being written in the background, which holds records) always reads what was stored. Space is
// taken back by moving: a chunk no longer the newest that holds half or fewer live vectors is
// given up, and `takeMoves` hands its owners to the namespace, which stores those vectors again
// (in the newest chunk) and drops its records' old views; the old chunk is freed by the garbage
// collector once nothing views it. So at most about twice the live vectors are held, plus the
// newest chunk.
// Chunks grow from SMALLEST_CHUNK vectors, doubling, up to about CHUNK_BYTES, so a namespace
// of a few vectors holds a few.
// Not safe for concurrent use; the index's JS thread owns it.

const SMALLEST_CHUNK = 16;
const CHUNK_BYTES = 1 << 20;

interface Chunk {
  readonly vectors: Float32Array;
  /** The owner of each place (a record's label), -1 once released; `used` places are taken. */
  readonly owners: Int32Array;
  used: number;
  live: number;
  givenUp: boolean;
}

export class VectorSlab {
  private readonly chunks = new Map<ArrayBufferLike, Chunk>();
  private newest: Chunk | null = null;
  /** Chunks given up, whose live vectors are yet to move. */
  private givenUp: Chunk[] = [];
  private readonly largest: number;

  constructor(private readonly dimension: number) {
    this.largest = Math.max(SMALLEST_CHUNK, Math.floor(CHUNK_BYTES / (dimension * Float32Array.BYTES_PER_ELEMENT)));
  }

  /** A copy of `vector` (of this slab's dimension), owned by `owner` until released. */
  store(vector: Float32Array, owner: number): Float32Array {
    let chunk = this.newest;
    if (chunk === null || chunk.used === chunk.owners.length) chunk = this.grow();
    const place = chunk.used++;
    chunk.live++;
    chunk.owners[place] = owner;
    const view = chunk.vectors.subarray(place * this.dimension, (place + 1) * this.dimension);
    view.set(vector);
    return view;
  }

  /** Gives back the place of `view`, returned by `store`. */
  release(view: Float32Array): void {
    const chunk = this.chunks.get(view.buffer);
    if (chunk === undefined) return;
    chunk.owners[(view.byteOffset - chunk.vectors.byteOffset) / (this.dimension * Float32Array.BYTES_PER_ELEMENT)] = -1;
    chunk.live--;
    if (chunk !== this.newest) this.giveUpIfSparse(chunk);
  }

  /** The owners whose vectors sit in chunks given up: the caller stores each again and drops the old view. */
  takeMoves(): number[] {
    const owners: number[] = [];
    for (const chunk of this.givenUp) {
      this.chunks.delete(chunk.vectors.buffer);
      for (const owner of chunk.owners) if (owner >= 0) owners.push(owner);
    }
    this.givenUp = [];
    return owners;
  }

  private giveUpIfSparse(chunk: Chunk): void {
    if (chunk.givenUp || chunk.live * 2 > chunk.owners.length) return;
    chunk.givenUp = true;
    this.givenUp.push(chunk);
  }

  private grow(): Chunk {
    const before = this.newest;
    const size = before === null ? SMALLEST_CHUNK : Math.min(this.largest, before.owners.length * 2);
    const chunk: Chunk = { vectors: new Float32Array(size * this.dimension), owners: new Int32Array(size).fill(-1), used: 0, live: 0, givenUp: false };
    this.chunks.set(chunk.vectors.buffer, chunk);
    this.newest = chunk;
    if (before !== null) this.giveUpIfSparse(before);
    return chunk;
  }
}
