// wrk scripts. The first POSTs prepared JSON bodies (one command each, as the Upstash REST API takes
// them at the database's root URL) from a file, one per line, round and round. Each thread
// starts at its own share of the file, so that threads do not send the same commands together.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WrkScript } from './wrk.js';

const SCRIPT = `
local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end
function init(args)
  bodies = {}
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  at = math.floor(id * #bodies / tonumber(args[2]))
end
function request()
  at = at % #bodies + 1
  return wrk.format("POST", nil, nil, bodies[at])
end
`;

const FIXED_SCRIPT = `
function init(args)
  local file = io.open(args[1], "rb")
  body = file:read("*a")
  file:close()
end
function request()
  return wrk.format("POST", nil, nil, body)
end
`;

/** A script that POSTs the same `body` every time (a pipeline, say). */
export function fixedBodyScript(dir: string, body: string): WrkScript {
  const path = join(dir, 'fixed.lua');
  const file = join(dir, 'fixed.json');
  writeFileSync(path, FIXED_SCRIPT);
  writeFileSync(file, body);
  return { path, args: [file] };
}

/** Writes the script and the bodies of `commands` into `dir`, for a run of `threads` threads. */
export function bodiesScript(dir: string, commands: readonly (readonly string[])[], threads: number): WrkScript {
  const path = join(dir, 'bodies.lua');
  const bodies = join(dir, 'bodies.jsonl');
  writeFileSync(path, SCRIPT);
  writeFileSync(bodies, commands.map((c) => JSON.stringify(c)).join('\n') + '\n');
  return { path, args: [bodies, String(threads)] };
}
