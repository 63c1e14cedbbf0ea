// The approximate nearest-neighbour index behind one namespace's dense vectors. An interface,
// so the engine does not depend on the library; HnswAnn implements it with usearch, whose npm
// package ships its compiled addon for each platform (nothing is compiled at install).
// Labels are the records' labels. A removed point's slot is reused by a later insert, so
// deletes do not grow memory; a restart rebuilds the graph from the stored vectors unless a
// clean close saved it (see persistence.ts for why).
// A saved graph is usearch's file followed by a trailer: [u32 CRC-32 of usearch's bytes]
// [u64 their length], little-endian. usearch's loader trusts what it reads (a damaged file
// crashes the process), so a load checks the trailer first; usearch ignores the bytes after
// its own.
// Not safe for concurrent use; the index's JS thread owns it.

import { appendFileSync, chmodSync, closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { FILE_MODE } from '../../storage/atomic-file.js';
import { crc32 } from '../../storage/crc32.js';
import type { Similarity } from './record.js';

export interface AnnIndex {
  /** Inserts a point, or moves it when the label is present. */
  add(label: number, vector: Float32Array): void;
  /** Inserts or moves many points (labels distinct) on every core: where each lands then
   *  depends on the threads' timing, so a load, which must rebuild the same graph, uses `add`. */
  addMany(labels: readonly number[], vectors: readonly Float32Array[]): void;
  remove(label: number): void;
  /** Candidates for the `k` nearest among those `accept` lets through: `k` or more where there
   *  are, roughly nearest first. The caller scores them exactly and keeps the best `k`. */
  search(query: Float32Array, k: number, accept?: (label: number) => boolean): number[];
  /** Points present (not removed). */
  readonly size: number;
  /** Approximate memory held, in bytes. */
  readonly bytes: number;
  /** Writes the graph to `path` (usearch's format and a checksum). */
  save(path: string): void;
}

// COSINE points and queries are scaled to unit length here, as hnswlib does, so the graph
// compares them by inner product: one dot product per distance where usearch's own cosine
// also computes two norms. Unit vectors fit half precision (every component within ±1), which
// halves the memory a search walks; at 100k vectors of 128 dimensions recall@10 stays 0.990
// and a query costs about a fifth less CPU than in single precision. Other similarities keep
// single precision: their components may exceed half precision's range (65504). The graph only
// picks candidates; their scores come from similarity.ts, exact. Squared L2 orders as L2 does.
const METRIC = { COSINE: MetricKind.IP, EUCLIDEAN: MetricKind.L2sq, DOT_PRODUCT: MetricKind.IP } as const;
const PRECISION = { COSINE: ScalarKind.F16, EUCLIDEAN: ScalarKind.F32, DOT_PRODUCT: ScalarKind.F32 } as const;
/** Graph degree, and build effort: usearch's default efConstruction, 128, where hnswlib's usual
 *  200 inserts about 1.5 times slower (100k clustered vectors of 128 dimensions, the vector-scale
 *  bench's data: 186 against 272 µs of CPU each on two cores). What 200 buys is a little recall
 *  at a given search breadth, which the breadth buys back: at 300k of those vectors (usearch in
 *  process, machine loaded) recall@10 was 0.923 / 0.962 / 0.976 / 0.988 with a breadth of
 *  100 / 150 / 200 / 300 against 0.929 / 0.968 / 0.981 / 0.990 with 200 (the low recall at 1M
 *  once blamed on 128 was the fixed breadth of 100, see EF_SEARCH_UP_TO). */
const M = 16;
const EF_CONSTRUCTION = 128;
/** Search breadth floor; usearch raises it to k for larger k. */
const EF_SEARCH = 100;
/**
 * The graph size up to which EF_SEARCH holds recall@10 near 0.99; past it the breadth grows
 * with the square root of the size (245 at 300k, 447 at 1M). On the bench's clustered unit
 * vectors of 128 dimensions, the share of the true top 10 kept at 300k points was 0.928 with a
 * breadth of 100, 0.969 with 150 and 0.991 with 300; at 1M 0.801 with 100, 0.910 with 200,
 * 0.959 with 320 and 0.973 with 450 (efConstruction 200; 128 keeps about 0.005 less at the same
 * breadth, so this is 50k rather than 64k). A query's cost grows about as its breadth.
 */
const EF_SEARCH_UP_TO = 50_000;
/** One query is too little work to share out: the calling thread does it. */
const ONE_THREAD = 1;
/** Inserts run on every core: usearch's 0. Every add passes it, single points included (one
 *  task runs on the calling thread alone), because usearch sizes its per-thread buffers by the
 *  thread count of the add that grows the graph, and a larger count later would find too few. */
const ALL_CORES = 0;
/** A filtered search first asks for this many times `k` points, then twice as many each time
 *  too few pass the filter, up to MAX_OVERFETCH times `k`: past that, namespace.ts's exact scan
 *  of the matching records costs less (it sends a filter here only when it keeps 5% or more). */
const FIRST_OVERFETCH = 4;
/** Candidates beyond `k` a search returns (up to `k` more): half precision cannot tell apart
 *  points whose scores differ in the fifth digit, so the caller's exact scores pick among them.
 *  Up to ef (100) candidates cost the search nothing more. */
const SPARE_CANDIDATES = 50;
const MAX_OVERFETCH = 64;
const TRAILER_BYTES = 12;
/** A saved graph is checksummed in pieces of this size, so any size fits in memory. */
const CHECKSUM_CHUNK = 1 << 20;

export class HnswAnn implements AnnIndex {
  private readonly index: Index;
  private readonly prepare: (v: Float32Array) => Float32Array;
  private readonly scalarBytes: number;

  /** A new, empty graph; or, with `saved`, the graph saved there, which must hold exactly the `live` labels. */
  constructor(
    similarity: Similarity,
    private readonly dimension: number,
    saved?: { path: string; live: readonly number[] },
  ) {
    this.prepare = similarity === 'COSINE' ? unitLength : (v) => v;
    this.scalarBytes = PRECISION[similarity] === ScalarKind.F16 ? 2 : 4;
    this.index = new Index({
      dimensions: dimension,
      metric: METRIC[similarity],
      quantization: PRECISION[similarity],
      multi: false,
      connectivity: M,
      expansion_add: EF_CONSTRUCTION,
      expansion_search: EF_SEARCH,
    });
    if (saved === undefined) return;
    checkTrailer(saved.path);
    this.index.load(saved.path);
    if (this.index.dimensions() !== dimension) throw new Error(`${saved.path} holds vectors of ${this.index.dimensions()} dimensions, not ${dimension}`);
    if (this.index.size() !== saved.live.length) throw new Error(`${saved.path} holds ${this.index.size()} points, not ${saved.live.length}`);
    for (const label of saved.live) {
      if (!this.index.contains(BigInt(label))) throw new Error(`${saved.path} lacks label ${label}`);
    }
  }

  save(path: string): void {
    this.index.save(path);
    const { crc, length } = checksum(path);
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeUInt32LE(crc, 0);
    trailer.writeBigUInt64LE(BigInt(length), 4);
    appendFileSync(path, trailer);
    chmodSync(path, FILE_MODE); // usearch creates the file with the umask's mode
  }

  get size(): number {
    return this.index.size();
  }

  get bytes(): number {
    // Per slot: the vector, level-0 links (2M ids), the key and the slot's header.
    return this.index.capacity() * (this.dimension * this.scalarBytes + 2 * M * 4 + 16);
  }

  add(label: number, vector: Float32Array): void {
    this.addMany([label], [vector]);
  }

  addMany(labels: readonly number[], vectors: readonly Float32Array[]): void {
    if (labels.length === 0) return;
    const keys = BigUint64Array.from(labels, BigInt);
    // usearch keeps one point per key: a moved point is removed and added again.
    this.index.remove(keys);
    const points = new Float32Array(labels.length * this.dimension);
    vectors.forEach((v, i) => points.set(this.prepare(v), i * this.dimension));
    this.index.add(keys, points, ALL_CORES);
  }

  remove(label: number): void {
    this.index.remove(BigInt(label));
  }

  search(query: Float32Array, k: number, accept?: (label: number) => boolean): number[] {
    const size = this.size;
    const point = this.prepare(query);
    const wanted = k + Math.min(k, SPARE_CANDIDATES);
    if (accept === undefined) return this.nearest(point, Math.min(wanted, size));
    // usearch's JS binding takes no filter: ask for more points until enough of them pass.
    const most = Math.min(k * MAX_OVERFETCH, size);
    for (let ask = Math.min(k * FIRST_OVERFETCH, most); ; ask = Math.min(ask * 2, most)) {
      const passed = this.nearest(point, ask).filter(accept);
      if (passed.length >= wanted || ask === most) return passed.slice(0, wanted);
    }
  }

  private nearest(point: Float32Array, k: number): number[] {
    if (k === 0) return [];
    // usearch searches as broadly as the points it is asked for: ask for the breadth, keep k.
    const size = this.size;
    const ask = size > EF_SEARCH_UP_TO ? Math.max(k, Math.round(EF_SEARCH * Math.sqrt(size / EF_SEARCH_UP_TO))) : k;
    const keys = this.index.search(point, ask, ONE_THREAD).keys;
    return Array.from(keys.subarray(0, k), Number);
  }
}

/** `v` scaled to length 1, as a copy; a zero vector stays zero. */
function unitLength(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const out = new Float32Array(v);
  if (sum === 0) return out;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < out.length; i++) out[i] *= scale;
  return out;
}

/** Throws unless `path` ends in a trailer that matches the bytes before it. */
function checkTrailer(path: string): void {
  const { crc, length, trailer } = checksum(path, TRAILER_BYTES);
  if (trailer.length !== TRAILER_BYTES || trailer.readBigUInt64LE(4) !== BigInt(length) || trailer.readUInt32LE(0) !== crc) {
    throw new Error(`${path} is damaged: its checksum does not match`);
  }
}

/** CRC-32 and length of the file at `path` less its last `trailerBytes`, and those bytes. */
function checksum(path: string, trailerBytes = 0): { crc: number; length: number; trailer: Buffer } {
  const fd = openSync(path, 'r');
  try {
    const length = Math.max(0, fstatSync(fd).size - trailerBytes);
    const chunk = Buffer.alloc(CHECKSUM_CHUNK);
    let crc = 0;
    for (let at = 0; at < length; ) {
      const n = readSync(fd, chunk, 0, Math.min(CHECKSUM_CHUNK, length - at), at);
      crc = crc32(chunk, 0, n, crc);
      at += n;
    }
    const trailer = Buffer.alloc(trailerBytes);
    const got = readSync(fd, trailer, 0, trailerBytes, length);
    return { crc, length, trailer: trailer.subarray(0, got) };
  } finally {
    closeSync(fd);
  }
}
