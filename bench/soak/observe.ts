// Everything a router shows, scanned for secrets as it is shown: errors (message, stack, util.inspect
// with their attempts), every event, every logger callback's arguments, every log line, and
// util.inspect of the router itself. Also counts events, for the scenario's notes.
import { inspect } from 'node:util';
import type { Logger, LoggerCallback, Router } from '@svc/router';
import { encodings } from './secrets.js';

/** A secret to look for, with a label that names it (the report never prints a secret). */
export interface Secret {
  label: string;
  value: string;
}

/** Every encoding of every secret, labelled. */
export function forms(secrets: readonly Secret[]): Secret[] {
  return secrets.flatMap(({ label, value }) =>
    encodings(value).map((form, i) => ({ label: i === 0 ? label : `${label} (encoded ${i})`, value: form })),
  );
}

const show = (value: unknown) => inspect(value, { depth: 8, breakLength: Number.POSITIVE_INFINITY });

export class Watcher {
  readonly #secrets: Secret[];
  readonly #retained: Array<[where: string, text: string]> | undefined;
  /** Texts that held a secret, and the first few of them. */
  found = 0;
  readonly examples: string[] = [];
  readonly events: Record<string, number> = {};
  /** Cooldowns by deployment id. */
  readonly cooled: Record<string, number> = {};

  constructor(secrets: readonly Secret[], options: { retain: boolean }) {
    this.#secrets = forms(secrets);
    this.#retained = options.retain ? [] : undefined;
  }

  /** Scans one text now (and keeps it, when retaining, for secrets learned later). */
  scan(where: string, text: string): void {
    this.#retained?.push([where, text]);
    this.#scanWith(this.#secrets, where, text);
  }

  /** Scans everything retained for secrets only known at the end (JWT assertions signed at run time). */
  rescan(secrets: readonly Secret[]): void {
    const more = forms(secrets);
    for (const [where, text] of this.#retained ?? []) this.#scanWith(more, where, text);
  }

  #scanWith(secrets: readonly Secret[], where: string, text: string): void {
    for (const { label, value } of secrets) {
      if (!text.includes(value)) continue;
      this.found += 1;
      if (this.examples.length < 5) this.examples.push(`${label} in ${where}`);
    }
  }

  /** A failed call's error, every way it can be printed. */
  error(error: unknown): void {
    if (!(error instanceof Error)) {
      this.scan('thrown value', show(error));
      return;
    }
    this.scan('error.message', error.message);
    this.scan('error.stack', error.stack ?? '');
    this.scan('util.inspect(error)', show(error));
    try {
      this.scan('JSON.stringify(error)', JSON.stringify(error));
    } catch {
      // not every error serialises; what matters is what it shows when it does
    }
    for (const attempt of (error as { attempts?: unknown[] }).attempts ?? [])
      if (attempt instanceof Error) this.scan('error.attempts', `${attempt.message}\n${attempt.stack}`);
  }

  /** Listens to every router event. */
  attach(router: Router): void {
    const names = ['success', 'failure', 'cooldown', 'fallback', 'warning', 'callback_error'] as const;
    for (const name of names) {
      router.on(name, (event: unknown) => {
        this.events[name] = (this.events[name] ?? 0) + 1;
        if (name === 'cooldown') {
          const id = (event as { model_id: string }).model_id;
          this.cooled[id] = (this.cooled[id] ?? 0) + 1;
        }
        this.scan(`'${name}' event`, show(event));
      });
    }
  }

  /** A logger callback that scans what it is given. */
  readonly callback: LoggerCallback = {
    logSuccessEvent: (kwargs) => this.scan('logSuccessEvent kwargs', show(kwargs)),
    logFailureEvent: (kwargs, response) => this.scan('logFailureEvent arguments', show([kwargs, response])),
  };

  /** A logger that scans every line. */
  readonly logger: Logger = {
    debug: (message, fields) => this.scan('log line', `${message} ${show(fields)}`),
    info: (message, fields) => this.scan('log line', `${message} ${show(fields)}`),
    warn: (message, fields) => this.scan('log line', `${message} ${show(fields)}`),
    error: (message, fields) => this.scan('log line', `${message} ${show(fields)}`),
  };

  /** What the router shows of itself. */
  router(router: Router): void {
    this.scan('util.inspect(router)', show(router));
    this.scan('util.inspect(router.modelList)', show(router.modelList));
    this.scan('router.getDeployments()', JSON.stringify(router.getDeployments()));
  }
}
