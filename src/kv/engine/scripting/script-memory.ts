// The memory bound of one script run (config scriptMemoryBytes). Redis has no such bound; Larder
// needs one because fengari runs Lua in the server's own heap, so one script could take the
// memory every client depends on (40 doublings of a string ask for a terabyte).
//
// fengari allocates as any JavaScript does, with no allocator to hook, so the bound is kept in
// two ways:
// - Strings, the one thing a few operations can make huge: every Lua string is a Uint8Array, and
//   while a script's Lua code runs the global Uint8Array is a function that checks each
//   allocation against the budget before making it. So `s .. s`, string.rep, table.concat and
//   string.format are refused before they allocate, and cjson and cmsgpack, which build JS
//   strings, charge their output as they go (chargeScriptMemory). Strings count as they are
//   made, dropped ones too: the count is of what the script allocated.
// - Everything else (tables, closures) grows one small piece per instruction: the JS heap's
//   growth since the run began is sampled by the VM's count hook and added to the strings.
// The metered Uint8Array is in place only while Lua code runs; commands a script runs
// (redis.call) run outside it.
//
// Not safe for concurrent use: one run at a time, on the database's JS thread, as scripts run.

const PlainUint8Array = Uint8Array;

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
    this.heapAtStart = process.memoryUsage().heapUsed;
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
    if (this.strings + this.heapGrowth + bytes <= this.limitBytes || (this.over && bytes <= ERROR_BYTES)) {
      this.strings += bytes;
      return;
    }
    if (!this.over) {
      this.over = true;
      this.exceeded();
    }
    throw new ScriptMemoryExceeded(this.exceededText());
  }

  /** Samples the heap's growth; whether the run is still within its limit. */
  withinLimit(): boolean {
    this.heapGrowth = Math.max(0, process.memoryUsage().heapUsed - this.heapAtStart);
    return this.strings + this.heapGrowth <= this.limitBytes;
  }

  exceededText(): string {
    return `Script killed: it used more than the memory limit of ${this.limitBytes} bytes (scriptMemoryBytes)`;
  }

  private swap(meter: ScriptMemory | null): void {
    active = meter;
    (globalThis as { Uint8Array: unknown }).Uint8Array = meter === null ? PlainUint8Array : MeteredUint8Array;
  }
}
