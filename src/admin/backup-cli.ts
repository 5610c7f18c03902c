/**
 * `bourse-admin backup DIR` and `bourse-admin restore DIR` (docs/operator.md, "Backup and
 * restore"). Unlike the other subcommands these do not call the operator API: they read and
 * write the store directly, where the server keeps it (--data-dir / BOURSE_DATA_DIR / ./data,
 * and --database-url / BOURSE_DATABASE_URL for PostgreSQL), as the server itself does. A
 * backup is consistent while the server runs (persistence/backup/); a restore refuses a
 * target a server has open, and a non-empty one without --force.
 *
 * Prints a JSON summary on stdout and exits 0; a failure prints `bourse-admin: <why>` on
 * stderr and exits 1; a usage error exits 2.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { takeBackup, type StoreAt } from '../persistence/backup/backup.ts';
import { restoreBackup } from '../persistence/backup/restore.ts';
import type { CliIo } from './cli.ts';

export const BACKUP_USAGE = `  backup DIR [--data-dir DIR] [--database-url URL]
  restore DIR [--data-dir DIR] [--database-url URL] [--force]`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  force: { type: 'boolean' },
} as const;

class UsageError extends Error {}

/** The store the command works on, as the server would find it. */
function storeAt(values: { 'data-dir'?: string; 'database-url'?: string }, env: NodeJS.ProcessEnv): StoreAt {
  const databaseUrl = values['database-url'] ?? (env.BOURSE_DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError('the database URL must be a postgres:// or postgresql:// URL');
  }
  return { dataDir: resolve(values['data-dir'] ?? (env.BOURSE_DATA_DIR || './data')), databaseUrl };
}

function where(store: StoreAt): string {
  if (!store.databaseUrl) return `sqlite:${store.dataDir}`;
  try {
    const url = new URL(store.databaseUrl);
    return `postgres://${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'postgres';
  }
}

async function run(command: string, dir: string, store: StoreAt, force: boolean, env: NodeJS.ProcessEnv) {
  if (command === 'backup') {
    const manifest = await takeBackup(store, dir, { serverKeyInEnvironment: Boolean(env.BOURSE_SERVER_KEY) });
    const bytes = Object.values(manifest.files).reduce((sum, file) => sum + file.bytes, 0);
    return {
      backup: dir,
      from: where(store),
      lastSeq: manifest.lastSeq,
      snapshotSeq: manifest.snapshotSeq,
      stateHash: manifest.stateHash,
      bytes,
      serverKey: manifest.serverKey,
    };
  }
  const report = await restoreBackup(dir, store, { replace: force });
  const notes =
    report.manifest.serverKey === 'environment'
      ? ['the backed-up server took its key from BOURSE_SERVER_KEY: start this one with the same key']
      : report.manifest.serverKey === 'none'
        ? ['the backup holds no server key: stored API keys cannot be used until it is put back']
        : [];
  return {
    restored: dir,
    into: where(store),
    takenAt: report.manifest.createdAt,
    lastSeq: report.lastSeq,
    stateHash: report.stateHash,
    notes,
  };
}

/** Runs `backup` or `restore` (argv starts with the command); the exit code. */
export async function runBackupCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let parsed: { command: string; dir: string; store: StoreAt; force: boolean };
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
    const [command = '', dir, ...rest] = positionals;
    if (!dir || rest.length > 0) throw new UsageError(`expected ${command} DIR`);
    if (command === 'backup' && values.force) throw new UsageError('--force is for restore');
    parsed = { command, dir: resolve(dir), store: storeAt(values, env), force: values.force === true };
  } catch (error) {
    io.stderr(`bourse-admin: ${error instanceof Error ? error.message : String(error)}\n\n${BACKUP_USAGE}\n`);
    return 2;
  }
  try {
    const summary = await run(parsed.command, parsed.dir, parsed.store, parsed.force, env);
    io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  } catch (error) {
    io.stderr(
      `bourse-admin: ${parsed.command} failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}
