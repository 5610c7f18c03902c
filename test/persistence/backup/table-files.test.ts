/**
 * Table files (src/persistence/backup/table-files.ts): rows written come back equal, in order
 * and in chunks, text with any character included; a file that is not one is refused.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  CHUNK_ROWS,
  readTableFile,
  tableFile,
  writeTableFile,
  type RowValues,
} from '../../../src/persistence/backup/table-files.ts';
import { tempDir } from './fixture.ts';

async function* chunksOf(rows: RowValues[], size: number): AsyncIterable<RowValues[]> {
  for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size);
}

test('writeTableFile when read back gives every row in order, a chunk at a time', async (t) => {
  const dir = tempDir(t, 'bourse-table-files-');
  mkdirSync(join(dir, 'tables'));
  const rows: RowValues[] = Array.from({ length: CHUNK_ROWS * 2 + 7 }, (_, index) => [
    index,
    `body ${index} "quoted" \n\u001e\u2028 ünï`,
    index % 3 === 0 ? null : 'x',
  ]);
  const file = tableFile(dir, 'journal');
  const written = await writeTableFile(file, {
    table: 'journal',
    columns: ['seq', 'body', 'note'],
    chunks: chunksOf(rows, 999),
  });
  assert.equal(written, rows.length);
  const read = await readTableFile(file);
  assert.deepEqual([read.table, read.columns], ['journal', ['seq', 'body', 'note']]);
  const chunks: RowValues[][] = [];
  for await (const chunk of read.chunks) chunks.push(chunk);
  assert.deepEqual(
    chunks.map((chunk) => chunk.length),
    [CHUNK_ROWS, CHUNK_ROWS, 7],
  );
  assert.deepEqual(chunks.flat(), rows);
});

test('readTableFile when the file is not a table file refuses it', async (t) => {
  const dir = tempDir(t, 'bourse-table-files-');
  const file = join(dir, 'other.jsonl.gz');
  writeFileSync(file, gzipSync('{"hello":"world"}\n'));
  await assert.rejects(readTableFile(file), /not a bourse table file/);
});
