// LCS: the longest common subsequence of two strings, by Redis's dynamic programming table and
// its walk back through it, so ties resolve and ranges come out exactly as Redis's do.

import { textOf } from '../../engine/editable-string.js';
import {
  LCS_LEN_AND_IDX,
  LCS_NO_MEMORY,
  LCS_NOT_STRINGS,
  LCS_TABLE_TOO_BIG,
  SYNTAX,
  type ReplyError,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { ArgReader } from '../args.js';
import type { Args, Ctx } from '../spec.js';

// Redis refuses a table larger than proto-max-bulk-len bytes (4 bytes a cell).
const MAX_TABLE_BYTES = 512 * 1024 * 1024;

// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN min-match-len] [WITHMATCHLEN]
export function lcsCommand(ctx: Ctx, argv: Args): Reply {
  const va = ctx.ks.get(argv[1]);
  const vb = ctx.ks.get(argv[2]);
  const a = va === undefined ? '' : textOf(va);
  const b = vb === undefined ? '' : textOf(vb);
  if (a === undefined || b === undefined) return LCS_NOT_STRINGS;
  const r = new ArgReader(argv, 3);
  let len = false;
  let idx = false;
  let withMatchLen = false;
  let minMatchLen = 0;
  while (!r.done && r.error === null) {
    switch (r.word('idx', 'len', 'withmatchlen', 'minmatchlen')) {
      case 'idx':
        idx = true;
        break;
      case 'len':
        len = true;
        break;
      case 'withmatchlen':
        withMatchLen = true;
        break;
      case 'minmatchlen':
        minMatchLen = Math.max(r.int(), 0);
        break;
      default:
        r.fail(SYNTAX);
    }
  }
  if (r.error !== null) return r.error;
  if (idx && len) return LCS_LEN_AND_IDX;

  const table = lcsTable(a, b);
  if (!(table instanceof Uint32Array)) return table;
  const width = b.length + 1;
  const total = table[a.length * width + b.length];
  if (len) return total;

  // Walk back from the end: matched bytes build the LCS, and each run of matches that are
  // contiguous in both strings is one range (in the order found, so last ranges first).
  const chars: string[] = new Array(total);
  const matches: Reply[] = [];
  let k = total;
  let aStart = -1; //                       -1: no range open
  let aEnd = 0;
  let bStart = 0;
  let bEnd = 0;
  let i = a.length;
  let j = b.length;
  while (i > 0 && j > 0) {
    let emit = false;
    if (a.charCodeAt(i - 1) === b.charCodeAt(j - 1)) {
      chars[--k] = a[i - 1];
      if (aStart === -1) {
        aStart = aEnd = i - 1;
        bStart = bEnd = j - 1;
      } else if (aStart === i && bStart === j) {
        aStart--;
        bStart--;
      } else {
        emit = true;
      }
      if (aStart === 0 || bStart === 0) emit = true;
      i--;
      j--;
    } else {
      if (table[(i - 1) * width + j] > table[i * width + j - 1]) i--;
      else j--;
      if (aStart !== -1) emit = true;
    }
    if (emit) {
      const matchLen = aEnd - aStart + 1;
      if (idx && matchLen >= minMatchLen) {
        const range: Reply[] = [
          [aStart, aEnd],
          [bStart, bEnd],
        ];
        if (withMatchLen) range.push(matchLen);
        matches.push(range);
      }
      aStart = -1;
    }
  }
  return idx ? ['matches', matches, 'len', total] : chars.join('');
}

/** table[i * (b.length + 1) + j] = length of the LCS of a[0, i) and b[0, j). */
function lcsTable(a: string, b: string): Uint32Array | ReplyError {
  const width = b.length + 1;
  const cells = (a.length + 1) * width;
  if (cells * 4 > MAX_TABLE_BYTES) return LCS_TABLE_TOO_BIG;
  let table: Uint32Array;
  try {
    table = new Uint32Array(cells);
  } catch {
    return LCS_NO_MEMORY;
  }
  for (let i = 1; i <= a.length; i++) {
    const c = a.charCodeAt(i - 1);
    const row = i * width;
    const above = row - width;
    for (let j = 1; j <= b.length; j++) {
      table[row + j] =
        c === b.charCodeAt(j - 1) ? table[above + j - 1] + 1 : Math.max(table[above + j], table[row + j - 1]);
    }
  }
  return table;
}
