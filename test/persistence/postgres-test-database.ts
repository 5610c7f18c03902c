/**
 * PostgreSQL for tests: whether it is reachable (127.0.0.1:5432, user postgres, trust auth;
 * BOURSE_TEST_POSTGRES_URL overrides), and a uniquely named database per test, dropped after.
 *
 * Without PostgreSQL, tests that need it are skipped with a plain message, except in CI
 * (CI=true), where a missing PostgreSQL is a failure: `postgresTests` registers them so.
 */
import { randomBytes } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import pg from 'pg';

export const ADMIN_URL =
  process.env.BOURSE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function where(): string {
  try {
    const url = new URL(ADMIN_URL);
    return `${url.hostname}:${url.port || '5432'}`;
  } catch {
    return ADMIN_URL;
  }
}

let probed: Promise<string | null> | null = null;

/** null when PostgreSQL answers, else why not. */
export function postgresUnavailable(): Promise<string | null> {
  probed ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return null;
    } catch (error) {
      return error instanceof Error ? error.message || error.name : String(error);
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return probed;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  /** Drops the database (idempotent), ending any connection still open to it. */
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `bourse_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | null = null;
  return {
    name,
    url: url.toString(),
    drop: () =>
      (dropped ??= admin(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      })),
  };
}

/** A database for one test, dropped when the test ends. */
export async function databaseFor(t: TestContext): Promise<TestDatabase> {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  return database;
}

export type TestBody = (t: TestContext) => Promise<void>;

/**
 * Registers tests that need PostgreSQL. Unreachable: skipped with a message naming how many,
 * or, when CI=true, one failing test saying PostgreSQL is required.
 */
export async function postgresTests(
  suite: string,
  tests: readonly { name: string; options?: { timeout?: number }; body: TestBody }[],
): Promise<void> {
  const reason = await postgresUnavailable();
  if (reason === null) {
    for (const { name, options, body } of tests) test(name, options ?? {}, body);
    return;
  }
  const message = `PostgreSQL not reachable on ${where()}: skipped ${tests.length} ${suite} (${reason})`;
  if (process.env.CI === 'true') {
    test(`${suite} when PostgreSQL is required (CI=true)`, () => {
      throw new Error(`${message}; in CI PostgreSQL must be running`);
    });
    return;
  }
  console.log(`# ${message}`);
  for (const { name } of tests) test(name, { skip: message }, () => undefined);
}
