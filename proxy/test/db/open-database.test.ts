import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ConfigError } from '@svc/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DatabaseUnavailableError } from '../../src/db/db-errors.js';
import { findKeyByHash, insertKey } from '../../src/db/keys-repo.js';
import { migrate } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open-database.js';
import { closeTestDatabases, engines, POSTGRES_URL } from '../db-engines.js';
import { eventually } from '../harness.js';
import { pgliteTemplate } from '../pglite-template.js';
import { startCutProxy } from '../tcp-cut-proxy.js';

/** The pid of a running process whose command line (arguments joined by spaces) matches. */
async function processRunning(matches: (cmdline: string) => boolean): Promise<number> {
  let found: number | undefined;
  // a database's creation alone takes seconds
  await eventually(async () => {
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (matches(cmdline.replaceAll('\0', ' '))) found = Number(entry);
    }
    expect(found).toBeDefined();
  }, 20_000);
  return found!;
}

afterAll(closeTestDatabases);

const HASH = 'ab'.repeat(32);

describe.each(engines)('a database ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await engine.open();
  });

  it('names its engine', () => {
    expect(db.engine).toBe(engine.name);
  });

  it('commits a transaction whose function resolves and rolls back one that throws', async () => {
    await db.query('CREATE TABLE t (v text)');

    await db.transaction((tx) => tx.query("INSERT INTO t VALUES ('kept')"));
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES ('undone')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');

    expect((await db.query('SELECT v FROM t')).rows).toEqual([{ v: 'kept' }]);
  });

  it('reads counts and bigint columns as numbers', async () => {
    const { rows } = await db.query('SELECT count(*) AS n, 9007199254740991::bigint AS big');
    expect(rows).toEqual([{ n: 1, big: 9007199254740991 }]);
  });
});

describe('the embedded database', () => {
  it('refuses a schema name that is not a plain identifier, on the calling thread', async () => {
    // the worker thread quotes whatever it is given: this check is the only one
    const opening = openDatabase({ schema: 'a; DROP TABLE x' });
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(/schema/);
  });

  it('persists in its data directory, created when missing, across a reopen', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    const dataDir = join(root, 'nested', '.svc-router');
    try {
      const first = await openDatabase({ dataDir });
      await migrate(first);
      await insertKey(first, { key_hash: HASH, key_alias: 'kept' });
      await first.close();

      const second = await openDatabase({ dataDir });
      expect(await migrate(second)).toEqual({ applied: [] });
      expect((await findKeyByHash(second, HASH))?.key_alias).toBe('kept');
      await second.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('names the directory when no database can be created there', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    const file = join(root, 'a-file');
    await writeFile(file, 'not a directory');
    try {
      const opening = openDatabase({ dataDir: join(file, '.svc-router') });
      await expect(opening).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(opening).rejects.toThrow(/Cannot open the embedded database at .*a-file/);
      await expect(opening).rejects.not.toThrow(/incomplete/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('names a file in the new database’s way and leaves it where it is', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    // a file where a database has a directory of that name
    await writeFile(join(root, 'base'), 'not a directory');
    try {
      const opening = openDatabase({ dataDir: root });
      await expect(opening).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(opening).rejects.toThrow(
        /^Cannot open the embedded database at .*: it holds files but no database \(base\): move them away/,
      );
      expect(await readFile(join(root, 'base'), 'utf8')).toBe('not a directory');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('names what an incomplete database lacks (a creation cut short by an earlier build) and leaves it as it is', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    // what an earlier build, which created the database in place, left when a full disk stopped it
    await writeFile(join(root, 'PG_VERSION'), '17\n');
    await mkdir(join(root, 'base'));
    await mkdir(join(root, 'global'));
    try {
      const opening = openDatabase({ dataDir: root });
      await expect(opening).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(opening).rejects.toThrow(
        /^Cannot open the embedded database at .*: it holds an incomplete database \(global\/pg_control, pg_wal, pg_xact, postgresql\.conf missing\), as a creation cut short leaves: move the directory away, or set another data_dir/,
      );
      expect((await readdir(root)).sort()).toEqual(['PG_VERSION', 'base', 'global']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('passes the engine’s own reason on for a whole database that does not open', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    const dataDir = join(root, '.svc-router');
    try {
      const made = await PGlite.create(dataDir, { loadDataDir: await pgliteTemplate() });
      await made.close();
      // every entry there, the control file unreadable to the engine
      await writeFile(join(dataDir, 'global', 'pg_control'), Buffer.alloc(8192));
      const opening = openDatabase({ dataDir });
      await expect(opening).rejects.toThrow(
        /^Cannot open the embedded database at .*: (PGlite failed to initialize properly|Aborted\(\))/,
      );
      await expect(opening).rejects.not.toThrow(/incomplete/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('leaves nothing of a creation killed half-way, and creates the database at the next start', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    const dataDir = join(root, '.svc-router');
    try {
      const opening = openDatabase({ dataDir });
      const creator = await processRunning(
        (cmdline) => cmdline.includes('pglite-create') && cmdline.includes(dataDir),
      );
      // once it has begun: the database is made aside, in a directory of its own inside dataDir
      await eventually(async () => {
        expect((await readdir(dataDir).catch(() => [])).length).toBeGreaterThan(0);
      }, 20_000);
      process.kill(creator, 'SIGKILL');
      await expect(opening).rejects.toThrow(
        /^Cannot open the embedded database at .*: the process creating it ended with SIGKILL/,
      );
      expect(await readdir(dataDir)).toEqual([]);

      const db = await openDatabase({ dataDir });
      expect(await migrate(db)).toMatchObject({ applied: expect.arrayContaining(['001-initial']) });
      await db.close();
      expect(await readdir(dataDir)).toContain('PG_VERSION');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('removes what a creating process that is gone left aside, and nothing else: not a running one’s', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    try {
      // pid 2**22 + 1 is above Linux's largest (pid_max is at most 2**22): never a running process
      await mkdir(join(root, `.svc-router-creating-${2 ** 22 + 1}`, 'base'), { recursive: true });
      // a process that is running (this one's parent) may still be creating one
      const running = `.svc-router-creating-${process.ppid}`;
      await mkdir(join(root, running, 'base'), { recursive: true });
      await writeFile(join(root, 'notes.txt'), 'kept');
      const db = await openDatabase({ dataDir: root });
      await db.close();
      const names = await readdir(root);
      expect(names.filter((name) => name.startsWith('.svc-router-creating-'))).toEqual([running]);
      expect(names).toEqual(expect.arrayContaining(['PG_VERSION', 'notes.txt']));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('keeps a buffer pool of 32 MB, new or kept, in a directory or in memory, leaving postgresql.conf as it is', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    const dataDir = join(root, '.svc-router');
    const buffers = async (options: Parameters<typeof openDatabase>[0]) => {
      const db = await openDatabase(options);
      try {
        return (await db.query('SHOW shared_buffers')).rows;
      } finally {
        await db.close();
      }
    };
    try {
      const template = await pgliteTemplate();
      expect(await buffers({ dataDir, pgliteTemplate: template })).toEqual([{ shared_buffers: '32MB' }]);
      // given at start, never written over the directory's own settings: an owner's edit stays
      const conf = join(dataDir, 'postgresql.conf');
      const edited = `${await readFile(conf, 'utf8')}\nwork_mem = 8MB\n`;
      await writeFile(conf, edited);
      expect(await buffers({ dataDir })).toEqual([{ shared_buffers: '32MB' }]);
      expect(await readFile(conf, 'utf8')).toBe(edited);
      expect(await buffers({ pgliteTemplate: template })).toEqual([{ shared_buffers: '32MB' }]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  /** A template holding one table, `seeded`, with one row. */
  const seededTemplate = async (): Promise<Blob> => {
    const source = await PGlite.create({ loadDataDir: await pgliteTemplate() });
    await source.exec("CREATE TABLE seeded (v text); INSERT INTO seeded VALUES ('from the template')");
    const template = await source.dumpDataDir('none');
    await source.close();
    return template;
  };
  const read = async (db: Database) => (await db.query('SELECT v FROM seeded')).rows;

  it('starts a database in memory as a copy of its template', async () => {
    const db = await openDatabase({ pgliteTemplate: await seededTemplate() });
    try {
      expect(await read(db)).toEqual([{ v: 'from the template' }]);
    } finally {
      await db.close();
    }
  });

  it('starts a new database as a copy of its template, and never lays the template over a kept one', async () => {
    const template = await seededTemplate();
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    const dataDir = join(root, '.svc-router');
    try {
      const first = await openDatabase({ dataDir, pgliteTemplate: template });
      expect(await read(first)).toEqual([{ v: 'from the template' }]);
      await first.query("UPDATE seeded SET v = 'changed since'");
      await first.close();

      const second = await openDatabase({ dataDir, pgliteTemplate: template });
      expect(await read(second)).toEqual([{ v: 'changed since' }]);
      await second.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('opening PostgreSQL', () => {
  it('refuses a database_url that is not a URL, without quoting it', async () => {
    const opening = openDatabase({ url: 'host=db password=hunter22' });
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(/database_url/);
    await expect(opening).rejects.not.toThrow(/hunter22/);
  });

  it('refuses a URL of another scheme', async () => {
    await expect(openDatabase({ url: 'mysql://u@127.0.0.1/test' })).rejects.toThrow(/postgres:\/\//);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openDatabase({ url: POSTGRES_URL, schema: 'a; DROP TABLE x' })).rejects.toThrow(/schema/);
  });

  it('names the host and never the password when the server refuses the connection', async () => {
    const opening = openDatabase({ url: 'postgres://svc:hunter22@127.0.0.1:1/prod' });
    await expect(opening).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(opening).rejects.toThrow(/127\.0\.0\.1:1\/prod/);
    await expect(opening).rejects.not.toThrow(/hunter22/);
  });

  it('names the host when it does not resolve', async () => {
    const opening = openDatabase({ url: 'postgres://svc:hunter22@no-such-host.invalid:5432/prod' });
    await expect(opening).rejects.toThrow(/no-such-host\.invalid:5432/);
    await expect(opening).rejects.not.toThrow(/hunter22/);
  });

  it('survives its idle connections dropping, reports it, and reconnects', async () => {
    const target = new URL(POSTGRES_URL);
    const proxy = await startCutProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const errors: string[] = [];
    const url = `postgres://${target.username}@127.0.0.1:${proxy.port}${target.pathname}`;
    const db = await openDatabase({ url, onError: (error) => errors.push(error.message) });
    try {
      await Promise.all([db.query('SELECT pg_sleep(0.05)'), db.query('SELECT pg_sleep(0.05)')]);

      proxy.cut();
      await expect.poll(() => errors.length).toBeGreaterThan(0);
      proxy.restore();

      expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
      await proxy.close();
    }
  });

  it('rejects a transaction whose connection drops, without crashing, and serves the next one', async () => {
    const target = new URL(POSTGRES_URL);
    const proxy = await startCutProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const db = await openDatabase({
      url: `postgres://${target.username}@127.0.0.1:${proxy.port}${target.pathname}`,
    });
    try {
      const dropped = proxy.dropAnswerTo('svc_marker');
      await expect(db.transaction((tx) => tx.query("SELECT 'svc_marker'"))).rejects.toThrow(/terminated/);
      await dropped;

      expect(await db.transaction((tx) => tx.query('SELECT 2 AS two'))).toEqual({ rows: [{ two: 2 }] });
    } finally {
      await db.close();
      await proxy.close();
    }
  });
});
