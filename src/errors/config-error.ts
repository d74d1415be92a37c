/**
 * Thrown at construction (or `updateSettings`) when the model list or settings are invalid. The message
 * lists every problem, each naming its field; it never contains a secret's value.
 */
export class ConfigError extends Error {
  /** One line per problem, e.g. "model_list[2].svc_params.rpm: expected a number, got string". */
  readonly problems: readonly string[];

  constructor(what: string, problems: readonly string[]) {
    super(
      problems.length === 1
        ? `Invalid ${what}: ${problems[0]}`
        : `Invalid ${what}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
