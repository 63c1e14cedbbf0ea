// The command line's text handling: splitting a line into arguments as redis-cli does (quotes
// group, backslash escapes inside double quotes) and completing a command name.

/** The arguments of `line`, or an error text for an unclosed quote. */
export function splitArgs(line: string): string[] | string {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i])) i++;
    if (i >= line.length) break;
    let arg = '';
    while (i < line.length && !/\s/.test(line[i])) {
      const q = line[i];
      if (q === '"' || q === "'") {
        i++;
        while (i < line.length && line[i] !== q) {
          if (q === '"' && line[i] === '\\' && i + 1 < line.length) {
            i++;
            arg += ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[line[i]] ?? line[i];
          } else arg += line[i];
          i++;
        }
        if (i >= line.length) return 'unbalanced quotes';
        i++;
      } else arg += line[i++];
    }
    out.push(arg);
  }
  return out;
}

/** Command names starting with the line's first word, when the cursor is still in that word. */
export function completions(line: string, names: readonly string[]): string[] {
  if (/\s/.test(line.trimStart())) return [];
  const word = line.trim().toLowerCase();
  if (word === '') return [];
  return names.filter((n) => n.startsWith(word)).sort();
}

/** The longest prefix every name shares. */
export function commonPrefix(names: readonly string[]): string {
  if (names.length === 0) return '';
  let p = names[0];
  for (const n of names) while (!n.startsWith(p)) p = p.slice(0, -1);
  return p;
}
