/**
 * Creates an embedded database (PGlite's initdb) in the directory given as its one argument, then
 * exits: run as a process of its own by pglite-worker-database.ts for a directory that holds none yet.
 * initdb leaves about 400 MB of WebAssembly memory behind it; a process that exits gives all of it
 * back to the system, where a thread that ended left about 120 MB of it with the gateway's process.
 * A failure is its message on stderr and exit code 1.
 */
import { openPglite } from './pglite-database.js';

try {
  const db = await openPglite({ dataDir: process.argv[2] });
  await db.close();
} catch (error) {
  process.stderr.write(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
