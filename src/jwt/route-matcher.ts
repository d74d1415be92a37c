import { closestMatch } from '../shared/did-you-mean.js';
import { normalizePath } from './path.js';
import { isRouteGroupName, ROUTE_GROUP_NAMES, ROUTE_GROUPS } from './route-groups.js';

/** Which route a path matched, with the values of its `{name}` placeholders. */
export interface RouteMatch {
  route: string;
  params: Readonly<Record<string, string>>;
}

/** A compiled route list: the match for a normalised path, or undefined. */
export type RouteMatcher = (normalizedPath: string) => RouteMatch | undefined;

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Why `entry` is not a valid route-list entry, or undefined when it is. An entry is a group name, an
 * exact path, a path with `{name}` placeholders, or a prefix ending in `/*`.
 */
export function routeEntryProblem(entry: string): string | undefined {
  if (isRouteGroupName(entry)) return undefined;
  if (!entry.startsWith('/')) {
    const near = closestMatch(entry, ROUTE_GROUP_NAMES);
    return near
      ? `unknown route group \`${entry}\`; did you mean \`${near}\`?`
      : `unknown route group \`${entry}\` (a route is a group name or a path starting with \`/\`)`;
  }
  const star = entry.indexOf('*');
  if (star !== -1 && (star !== entry.length - 1 || !entry.endsWith('/*'))) {
    return `\`${entry}\`: \`*\` is only allowed as a final \`/*\` (a prefix)`;
  }
  if (
    normalizePath(entry.endsWith('/*') ? entry.slice(0, -2) || '/' : entry.replace(/\{[^}]*\}/g, 'x')) ===
    undefined
  ) {
    return `\`${entry}\` is not a plain path (no \`..\`, \`.\`, escapes or spaces)`;
  }
  return undefined;
}

function expand(entries: readonly string[]): string[] {
  const routes: string[] = [];
  for (const entry of entries) {
    if (isRouteGroupName(entry)) routes.push(...ROUTE_GROUPS[entry]);
    else routes.push(entry);
  }
  return [...new Set(routes)];
}

function placeholderRegex(route: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  let source = '';
  for (const part of route.split(/(\{[^}]+\})/)) {
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name !== undefined) {
      names.push(name);
      source += '([^/]+)';
    } else {
      source += part.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    }
  }
  return { re: new RegExp(`^${source}$`), names };
}

/**
 * Compiles a route list (group names and paths, as in `team_allowed_routes`) once. The matcher takes a
 * path already normalised by `normalizePath`; exact paths are a set lookup.
 *
 * @example createRouteMatcher(['openai_routes'])('/v1/chat/completions') // => { route: '/v1/chat/completions', params: {} }
 */
export function createRouteMatcher(entries: readonly string[]): RouteMatcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const patterns: { route: string; re: RegExp; names: string[] }[] = [];
  for (const route of expand(entries)) {
    if (route.endsWith('/*')) prefixes.push(route.slice(0, -2));
    else if (route.includes('{')) patterns.push({ route, ...placeholderRegex(route) });
    else exact.add(route === '/' ? route : route.replace(/\/+$/, ''));
  }
  return (path) => {
    if (exact.has(path)) return { route: path, params: NO_PARAMS };
    for (const prefix of prefixes) {
      if (prefix === '' || path === prefix || path.startsWith(`${prefix}/`)) {
        return { route: `${prefix}/*`, params: NO_PARAMS };
      }
    }
    for (const { route, re, names } of patterns) {
      const m = re.exec(path);
      if (m) {
        const params: Record<string, string> = {};
        names.forEach((name, i) => {
          params[name] = m[i + 1]!;
        });
        return { route, params };
      }
    }
    return undefined;
  };
}

/**
 * Whether a request target is in a route list: normalises it first (a target `normalizePath` refuses
 * matches nothing).
 *
 * @example matchRoute('/v1beta/models/gemini-2.5-pro:generateContent', ['google_routes'])?.params.model_name // => 'gemini-2.5-pro'
 */
export function matchRoute(target: string, entries: readonly string[]): RouteMatch | undefined {
  const path = normalizePath(target);
  return path === undefined ? undefined : createRouteMatcher(entries)(path);
}
