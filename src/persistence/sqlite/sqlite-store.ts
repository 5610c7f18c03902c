/**
 * SQLite store (better-sqlite3, WAL, synchronous=FULL): the embedded default.
 *
 * One `append` is one transaction and one fsync, however many commands it carries: the
 * sequencer calls it once per event-loop turn (group commit). Each journal row carries a
 * CRC-32 of its body; recovery refuses a row whose checksum does not match.
 */
import Database from 'better-sqlite3';
import { crc32 } from 'node:zlib';
import type { Command } from '../../domain/commands.ts';
import type { FillView } from '../../domain/events.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type {
  BillQuery,
  BillRow,
  FillQuery,
  FundingRow,
  JournalEntry,
  OrderQuery,
  Snapshot,
  Store,
} from '../../ports/store.ts';
import { decode, encode } from '../codec.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { createSqliteProjector } from './projector.ts';

export class CorruptJournalError extends Error {}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (row) => row.version,
    ),
  );
  for (const migration of SQLITE_MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_ms) VALUES (?, ?)').run(
        migration.version,
        Date.now(),
      );
    })();
  }
}

export function openSqliteStore(file: string): Store {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  const insertJournal = db.prepare(
    'INSERT INTO journal (seq, time_ms, type, body, checksum) VALUES (?, ?, ?, ?, ?)',
  );
  const project = createSqliteProjector(db);
  const appendAll = db.transaction((entries: readonly JournalEntry[]) => {
    for (const entry of entries) {
      const body = encode(entry.command);
      insertJournal.run(entry.seq, entry.command.timeMs, entry.command.type, body, crc32(body));
      for (const event of entry.events) project(event);
    }
  });

  return {
    async latestSnapshot(): Promise<Snapshot | null> {
      const row = db.prepare('SELECT seq, time_ms, body FROM snapshots ORDER BY seq DESC LIMIT 1').get() as
        { seq: number; time_ms: number; body: string } | undefined;
      return row ? { seq: row.seq, timeMs: row.time_ms, body: row.body } : null;
    },
    async *journalAfter(seq: number) {
      const rows = db
        .prepare('SELECT seq, body, checksum FROM journal WHERE seq > ? ORDER BY seq')
        .iterate(seq);
      for (const row of rows as Iterable<{ seq: number; body: string; checksum: number }>) {
        if (crc32(row.body) !== row.checksum) {
          throw new CorruptJournalError(
            `journal record ${row.seq} fails its checksum; refusing to replay the tail`,
          );
        }
        yield { seq: row.seq, command: decode<Command>(row.body) };
      }
    },
    async lastSeq() {
      const row = db.prepare('SELECT MAX(seq) AS seq FROM journal').get() as { seq: number | null };
      return row.seq ?? 0;
    },
    async append(entries) {
      appendAll(entries);
    },
    async saveSnapshot(snapshot) {
      db.prepare('INSERT OR REPLACE INTO snapshots (seq, time_ms, body) VALUES (?, ?, ?)').run(
        snapshot.seq,
        snapshot.timeMs,
        snapshot.body,
      );
      db.prepare('DELETE FROM snapshots WHERE seq < ?').run(snapshot.seq);
    },
    async bills(query: BillQuery): Promise<BillRow[]> {
      return queryBills(db, query);
    },
    async fundingRecords(uid, limit): Promise<FundingRow[]> {
      const rows = db
        .prepare('SELECT * FROM funding_records WHERE uid = ? ORDER BY record_id DESC LIMIT ?')
        .all(uid, limit) as Record<string, string | number>[];
      return rows.map((row) => ({
        recordId: String(row.record_id),
        txId: String(row.tx_id),
        uid: String(row.uid),
        coin: String(row.coin),
        amount: BigInt(row.amount as string),
        direction: row.direction as FundingRow['direction'],
        subType: String(row.sub_type),
        status: String(row.status),
        timeMs: Number(row.time_ms),
      }));
    },
    async order(uid, reference) {
      const row = reference.orderId
        ? db.prepare('SELECT body FROM orders WHERE uid = ? AND order_id = ?').get(uid, reference.orderId)
        : db
            .prepare(
              'SELECT body FROM orders WHERE uid = ? AND client_oid = ? ORDER BY order_id DESC LIMIT 1',
            )
            .get(uid, reference.clientOid ?? '');
      return row ? (JSON.parse((row as { body: string }).body) as OrderView) : null;
    },
    async orders(query: OrderQuery) {
      const { where, params } = filters(query, 'order_id', 'created_ms');
      if (query.closedOnly) where.push("status IN ('filled', 'cancelled')");
      const sql = `SELECT body FROM orders WHERE ${where.join(' AND ')} ORDER BY order_id DESC LIMIT ?`;
      const rows = db.prepare(sql).all(...params, query.limit) as { body: string }[];
      return rows.map((row) => JSON.parse(row.body) as OrderView);
    },
    async fills(query: FillQuery) {
      const { where, params } = filters(query, 'exec_id', 'time_ms');
      if (query.orderId) {
        where.push('order_id = ?');
        params.push(query.orderId);
      }
      const sql = `SELECT body FROM fills WHERE ${where.join(' AND ')} ORDER BY exec_id DESC LIMIT ?`;
      const rows = db.prepare(sql).all(...params, query.limit) as { body: string }[];
      return rows.map((row) => JSON.parse(row.body) as FillView);
    },
    async close() {
      db.close();
    },
  };
}

/** The filters orders and fills share: account, categories, symbol, time window, id cursor. */
function filters(query: OrderQuery | FillQuery, idColumn: string, timeColumn: string) {
  const where: string[] = ['uid = ?'];
  const params: (string | number)[] = [query.uid];
  if (query.categories?.length) {
    where.push(`category IN (${query.categories.map(() => '?').join(',')})`);
    params.push(...query.categories);
  }
  if (query.symbol) {
    where.push('symbol = ?');
    params.push(query.symbol);
  }
  if (query.startTimeMs !== undefined) {
    where.push(`${timeColumn} >= ?`);
    params.push(query.startTimeMs);
  }
  if (query.endTimeMs !== undefined) {
    where.push(`${timeColumn} <= ?`);
    params.push(query.endTimeMs);
  }
  if (query.idLessThan) {
    where.push(`${idColumn} < ?`);
    params.push(query.idLessThan);
  }
  return { where, params };
}

function queryBills(db: Database.Database, query: BillQuery): BillRow[] {
  const where: string[] = ['uid = ?', `wallet IN (${query.wallets.map(() => '?').join(',') || "''"})`];
  const params: (string | number)[] = [query.uid, ...query.wallets];
  if (query.coin) {
    where.push('coin = ?');
    params.push(query.coin);
  }
  if (query.businessTypes?.length) {
    where.push(`business_type IN (${query.businessTypes.map(() => '?').join(',')})`);
    params.push(...query.businessTypes);
  }
  if (query.excludeBusinessTypes?.length) {
    where.push(`business_type NOT IN (${query.excludeBusinessTypes.map(() => '?').join(',')})`);
    params.push(...query.excludeBusinessTypes);
  }
  if (query.startTimeMs !== undefined) {
    where.push('time_ms >= ?');
    params.push(query.startTimeMs);
  }
  if (query.endTimeMs !== undefined) {
    where.push('time_ms <= ?');
    params.push(query.endTimeMs);
  }
  if (query.idLessThan) {
    where.push('bill_id < ?');
    params.push(query.idLessThan);
  }
  if (query.idGreaterThan) {
    where.push('bill_id > ?');
    params.push(query.idGreaterThan);
  }
  const order = query.idGreaterThan ? 'ASC' : 'DESC';
  const sql = `SELECT * FROM bills WHERE ${where.join(' AND ')} ORDER BY bill_id ${order} LIMIT ?`;
  const rows = db.prepare(sql).all(...params, query.limit) as Record<string, string | number>[];
  return rows.map((row) => ({
    billId: String(row.bill_id),
    uid: String(row.uid),
    wallet: String(row.wallet),
    coin: String(row.coin),
    symbol: String(row.symbol),
    amount: BigInt(row.amount as string),
    fee: BigInt(row.fee as string),
    balanceAfter: BigInt(row.balance as string),
    businessType: String(row.business_type),
    timeMs: Number(row.time_ms),
  }));
}
