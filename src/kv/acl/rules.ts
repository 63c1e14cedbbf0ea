// ACL SETUSER's argument list: a '(...)' selector may span several arguments, which are joined
// first (Redis ACLMergeSelectorArguments); then each rule applies in order.

import type { Args } from '../commands/spec.js';
import { aclRuleError, aclUnmatchedParenthesis, type ReplyError } from '../errors.js';
import type { AclUser } from './user.js';

/** Applies `rules` to `user` in order; the first invalid rule's error. Stage on a clone. */
export function applyRules(user: AclUser, rules: Args): ReplyError | null {
  const merged = mergeSelectors(rules);
  if (!Array.isArray(merged)) return merged;
  for (const op of merged) {
    const reason = user.apply(op);
    if (reason !== null) return aclRuleError(op, reason);
  }
  return null;
}

/** Rules written as one line, as in the config file: "on >secret ~app:* +@read". */
export function splitRules(line: string): string[] {
  return line.split(/[ \t\n\r]+/).filter((r) => r !== '');
}

function mergeSelectors(rules: Args): string[] | ReplyError {
  const merged: string[] = [];
  let open = -1;
  let selector = '';
  for (let i = 0; i < rules.length; i++) {
    const op = rules[i];
    if (open === -1 && op.startsWith('(') && !op.endsWith(')')) {
      open = i;
      selector = op;
    } else if (open !== -1) {
      selector += ` ${op}`;
      if (op.endsWith(')')) {
        merged.push(selector);
        open = -1;
      }
    } else {
      merged.push(op);
    }
  }
  return open === -1 ? merged : aclUnmatchedParenthesis(rules[open]);
}
