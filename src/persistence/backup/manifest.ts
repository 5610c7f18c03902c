/**
 * A backup's manifest (`manifest.json`): what the backup holds and what a restore must get
 * back. Every file of the backup is listed with its size and SHA-256, so a damaged or
 * incomplete backup is refused before anything is written; `lastSeq` and `stateHash` are
 * those of the engine recovered from the backup when it was taken, which a restore checks
 * again on the restored store.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { pendingMigrations } from '../migrations.ts';

export const MANIFEST_FILE = 'manifest.json';
const FORMAT = 'bourse-backup';
const FORMAT_VERSION = 1;

export interface FileEntry {
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  /** ISO time the backup was taken (wall clock). */
  createdAt: string;
  /** The store it was taken from: `sqlite` (the file `bourse.db`) or `postgres` (`tables/`). */
  store: 'sqlite' | 'postgres';
  /** Schema versions the store had applied (schema.ts). */
  schemaVersions: number[];
  lastSeq: number;
  snapshotSeq: number;
  /** engine/state-hash.ts of the state recovered from the backup. */
  stateHash: string;
  /** Rows per table. */
  rows: Record<string, number>;
  /** Every file but the manifest, by path relative to the backup directory. */
  files: Record<string, FileEntry>;
  /** Where the server key is: in the backup (`file`), in BOURSE_SERVER_KEY (`environment`), or nowhere (`none`). */
  serverKey: 'file' | 'environment' | 'none';
}

export type ManifestBody = Omit<Manifest, 'format' | 'version' | 'files'>;

export async function fileEntry(file: string): Promise<FileEntry> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { bytes: statSync(file).size, sha256: hash.digest('hex') };
}

/** Writes the manifest of `dir`, listing `files` (relative paths) with their sizes and hashes. */
export async function writeManifest(dir: string, body: ManifestBody, files: string[]): Promise<Manifest> {
  const entries: Record<string, FileEntry> = {};
  for (const file of files) entries[file] = await fileEntry(join(dir, file));
  const manifest: Manifest = { format: FORMAT, version: FORMAT_VERSION, ...body, files: entries };
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

/**
 * The manifest of the backup in `dir`, checked: its format, a schema this bourse knows, and
 * every file present with the size and hash listed. Throws with what is wrong.
 */
export async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) throw new Error(`${dir} is not a bourse backup: it has no ${MANIFEST_FILE}`);
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
  if (manifest.format !== FORMAT || manifest.version !== FORMAT_VERSION) {
    throw new Error(`${path} is not a bourse backup manifest of version ${FORMAT_VERSION}`);
  }
  if (manifest.store !== 'sqlite' && manifest.store !== 'postgres') {
    throw new Error(`${path} names an unknown store ${String(manifest.store)}`);
  }
  // Throws when the backup was taken by a newer bourse (a schema version this one lacks).
  pendingMigrations(manifest.schemaVersions ?? []);
  for (const [file, expected] of Object.entries(manifest.files ?? {})) {
    if (isAbsolute(file) || file.split(/[\\/]/).includes('..')) {
      throw new Error(`${path} lists ${file}, outside the backup directory`);
    }
    const full = join(dir, file);
    if (!existsSync(full)) throw new Error(`the backup is incomplete: ${file} is missing`);
    const actual = await fileEntry(full);
    if (actual.bytes !== expected.bytes || actual.sha256 !== expected.sha256) {
      throw new Error(`the backup is damaged: ${file} does not match its size and SHA-256 in the manifest`);
    }
  }
  return manifest as Manifest;
}
