// The memory bound of one script run (config scriptMemoryBytes). Redis has no such bound; Larder
// needs one because fengari runs Lua in the server's own heap, so one script could take the
// memory every client depends on (40 doublings of a string ask for a terabyte).
//
// fengari allocates as any JavaScript does, with no allocator to hook, so the bound is kept in
// three ways:
// - Strings, the one thing a few operations can make huge: every Lua string is a Uint8Array, and
//   while a script's Lua code runs the global Uint8Array is a function that checks each
//   allocation against the budget before making it. So `s .. s`, string.rep, table.concat and
//   string.format are refused before they allocate, and cjson and cmsgpack, which build JS
//   strings, charge their output as they go (chargeScriptMemory). Strings count as they are
//   made, dropped ones too.
// - Everything else (tables, closures) grows one small piece per instruction: the heap's growth
//   since the run began (ArrayBuffers included, so strings count twice there) is sampled by the
//   VM's count hook and added to the strings. On Node the sample reads V8's counters:
//   process.memoryUsage() takes 8 us (it reads the RSS too), paid by every run.
// - Before either stops the run, a full garbage collection tells what the run still holds (the
//   heap's growth since it began), and that becomes the count. A string built piece by piece
//   (`s = s .. piece`) allocates about the square of its length (in Redis's Lua too), nearly
//   all of it dropped at once: counted as allocated, a 23 KB string built a byte at a time
//   passed 256 MB. The run goes on only with a sixteenth of its limit to spare, so a collection
//   comes at most once per sixteenth allocated; it pauses the server, as the script does.
// The metered Uint8Array is in place only while Lua code runs; commands a script runs
// (redis.call) run outside it.
//
// Not safe for concurrent use: one run at a time, on the database's JS thread, as scripts run.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const PlainUint8Array = Uint8Array;

const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;

/**
 * The bytes the heap holds, ArrayBuffers included: Bun counts them in heapUsed (its heapSize()
 * is cheaper on a small heap, but walks a large one: 22 us at 300k objects); V8 apart, as
 * external memory, and its own counters are read in 0.2 us.
 */
const heapBytes: () => number =
  bun !== undefined
    ? () => process.memoryUsage().heapUsed
    : () => {
        const heap = getHeapStatistics();
        return heap.used_heap_size + heap.external_memory;
      };

let fullCollection: (() => void) | null = null;

/** A full, synchronous garbage collection: Bun's, or V8's (exposed, on first use, to a context of its own). */
function collectGarbage(): void {
  if (fullCollection === null) {
    if (bun !== undefined) {
      fullCollection = () => bun.gc(true);
    } else {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      // Twice: V8 accounts for the ArrayBuffers a collection freed only once their sweep (in
      // the background) is done, which the next one finishes. gc({ type: 'major' }) frees
      // fewer of them.
      fullCollection = () => {
        gc();
        gc();
      };
    }
  }
  fullCollection();
}

/** The largest string a run past its limit may still make: its error's text. */
const ERROR_BYTES = 1024;

/** The meter of the run in progress; null between runs and while a script's command runs. */
let active: ScriptMemory | null = null;

/** Thrown where an allocation is refused, through fengari, up to the VM's call. */
class ScriptMemoryExceeded extends Error {}

/**
 * Uint8Array while Lua code runs. A plain function rather than a subclass: what it makes are
 * plain Uint8Arrays, and it shares their prototype, so `instanceof` holds for every one without
 * a Symbol.hasInstance (which made V8 build each Lua string four times slower).
 */
function MeteredUint8Array(from?: unknown, offset?: number, length?: number): Uint8Array {
  // A length allocates; an array or typed array is copied; an ArrayBuffer is only viewed.
  active?.charge(typeof from === 'number' ? from : ((from as { length?: number } | null)?.length ?? 0));
  return new PlainUint8Array(from as ArrayBuffer, offset, length);
}
MeteredUint8Array.prototype = PlainUint8Array.prototype;
Object.setPrototypeOf(MeteredUint8Array, PlainUint8Array); // Uint8Array.from, .of, BYTES_PER_ELEMENT

/** Charges `bytes` a library is about to build for the running script, if one runs. */
export function chargeScriptMemory(bytes: number): void {
  active?.charge(bytes);
}

/** The bytes the running script has taken so far (collectgarbage('count')); 0 with none running. */
export function scriptMemoryUsed(): number {
  return active?.used() ?? 0;
}

export class ScriptMemory {
  private strings = 0;
  private heapAtStart = 0;
  private heapGrowth = 0;
  private over = false;

  /** `exceeded` runs as the first allocation is refused, before the refusal is thrown. */
  constructor(
    readonly limitBytes: number,
    private readonly exceeded: () => void,
  ) {}

  /** Runs `run` (a script's call into Lua) with its allocations counted from zero. */
  meter<T>(run: () => T): T {
    this.strings = 0;
    this.heapGrowth = 0;
    this.over = false;
    this.heapAtStart = heapBytes();
    this.swap(this);
    try {
      return run();
    } finally {
      this.swap(null);
    }
  }

  /** Runs `f` (a command a script runs) outside the bound: its memory is the command's. */
  outside<T>(f: () => T): T {
    const was = active;
    this.swap(null);
    try {
      return f();
    } finally {
      this.swap(was);
    }
  }

  /**
   * Counts `bytes` about to be allocated, or throws when they would take the run past its
   * limit. Once past it, the run is being stopped: it may still make the small strings of its
   * error, nothing larger (a coroutine may run on until its next hook).
   */
  charge(bytes: number): void {
    const within = this.strings + this.heapGrowth + bytes <= this.limitBytes;
    if (within || (this.over && bytes <= ERROR_BYTES) || (!this.over && this.heldWithRoomFor(bytes))) {
      this.strings += bytes;
      return;
    }
    if (!this.over) {
      this.over = true;
      this.exceeded();
    }
    throw new ScriptMemoryExceeded(this.exceededText());
  }

  /** What the run has taken: its strings and the heap's growth, sampled now. */
  used(): number {
    this.heapGrowth = Math.max(0, heapBytes() - this.heapAtStart);
    return this.strings + this.heapGrowth;
  }

  /** Samples the heap's growth; whether the run is still within its limit. */
  withinLimit(): boolean {
    return this.used() <= this.limitBytes || this.heldWithRoomFor(0);
  }

  /**
   * Counts what the run holds, after a full collection, in place of what it allocated; whether
   * that and `bytes` more leave a sixteenth of the limit to spare.
   */
  private heldWithRoomFor(bytes: number): boolean {
    const room = this.limitBytes - this.limitBytes / 16;
    if (bytes > room) return false; // no collection makes room for it
    collectGarbage();
    this.strings = 0;
    this.heapGrowth = Math.max(0, heapBytes() - this.heapAtStart);
    return this.heapGrowth + bytes <= room;
  }

  exceededText(): string {
    return `Script killed: it used more than the memory limit of ${this.limitBytes} bytes (scriptMemoryBytes)`;
  }

  private swap(meter: ScriptMemory | null): void {
    active = meter;
    (globalThis as { Uint8Array: unknown }).Uint8Array = meter === null ? PlainUint8Array : MeteredUint8Array;
  }
}
