import { ConfigError } from '@svc/router';
import { quoteIdentifier } from './sql-identifier.js';

// a plain identifier is safe to put in a connection's startup options, and never cut short (PostgreSQL
// keeps 63 characters of a name)
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * The schema name quoted for SQL (`"svc_test_1"`), after checking it is a plain identifier.
 * @throws ConfigError naming `schema` when it is not.
 */
export function quoteSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema))
    throw new ConfigError('database schema', [
      'schema: expected letters, digits and underscores (at most 63, not starting with a digit)',
    ]);
  return quoteIdentifier(schema);
}
