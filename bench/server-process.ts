// A server started for one benchmark row: spawned, awaited until it says it is ready, and
// always stopped (SIGTERM, then SIGKILL). Every live child is killed if the bench itself exits.

import { spawn, type ChildProcess } from 'node:child_process';

/** Thrown when a row cannot run because a tool is not installed; the table shows the note. */
export class Missing extends Error {}

const KEEP_OUTPUT = 16_384; // bytes of output kept for matching and for failure messages
const STOP_GRACE_MS = 3_000;

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
// A signal would end the bench without 'exit'; exiting here runs the hook above.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

export class ServerProcess {
  private output = '';
  private ended: string | null = null;
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly label: string,
  ) {
    live.add(child);
    const take = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-KEEP_OUTPUT);
      for (const wake of this.waiters) wake();
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.on('exit', (code, signal) => {
      live.delete(child);
      this.ended = signal === null ? `exited with code ${code}` : `killed by ${signal}`;
      for (const wake of this.waiters) wake();
    });
  }

  /** Spawns `command`; a command that is not installed becomes `Missing` with `installHint`. */
  static start(command: string, args: readonly string[], cwd: string, installHint: string): Promise<ServerProcess> {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(new ServerProcess(child, command)));
      child.once('error', (e: NodeJS.ErrnoException) =>
        reject(e.code === 'ENOENT' ? new Missing(`${command} not installed (${installHint})`) : e),
      );
    });
  }

  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`${this.label} not ready after ${timeoutMs} ms: ${this.tail()}`)), timeoutMs);
      const done = (result: RegExpMatchArray | Error) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const check = () => {
        const m = pattern.exec(this.output);
        if (m !== null) done(m);
        else if (this.exitStatus !== null) done(new Error(`${this.label} ${this.exitStatus}: ${this.tail()}`));
      };
      this.waiters.add(check);
      check();
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** How the process ended, or null while it runs. */
  get exitStatus(): string | null {
    return this.ended;
  }

  /** The output so far (its last 16 KiB). */
  text(): string {
    return this.output;
  }

  /** The last output lines, on one line, for a table note. */
  tail(): string {
    const lines = this.output.trim().split('\n').slice(-3).join(' | ');
    return lines === '' ? '(no output)' : lines;
  }

  async stop(): Promise<void> {
    if (this.exitStatus !== null) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    await gone;
    clearTimeout(timer);
  }
}
