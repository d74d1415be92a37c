import { pathOf } from '@svc/router/config';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

function depth(issues: readonly Issue[]): number {
  return Math.max(...issues.map((issue) => issue.path.length));
}

/**
 * A union's issues as those of the branch that got furthest into the value: `content` given as
 * blocks reports the bad block, not "expected string".
 */
function flatten(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, path }];
    const branch = issue.errors.reduce((best, next) => (depth(next) > depth(best) ? next : best));
    return flatten(branch, path);
  });
}

function reason(issue: Issue): string {
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return 'is required';
  if (issue.code === 'invalid_union' && 'options' in issue) {
    return `expected one of ${(issue.options as unknown[]).map((o) => `\`${String(o)}\``).join(', ')}`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}

/**
 * One line per problem of a request body, each naming its field (`messages[0].content[1].source.data:
 * is required`). Values are never quoted: a body may hold anything.
 */
export function requestProblems(error: z.ZodError): string[] {
  return flatten(error.issues).map((issue) => `${pathOf('', issue.path) || 'body'}: ${reason(issue)}`);
}
