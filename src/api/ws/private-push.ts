/**
 * Private pushes for one touched account in one durable batch, and the first push of a new
 * private subscription. orders, fill and positions-history carry the batch's own events;
 * account and positions carry the account's current rows, sent only when they differ from
 * what the subscription last received (account: per coin; positions: the whole list, which
 * is how the venue reports a position that closed — it is no longer in the list).
 *
 * orders and fill send no snapshot on subscribe (the venue's do not); account and positions do.
 *
 * A v3 channel spans every category: its event rows are only those of the categories the
 * connection's key may read (a spot-only key sees no futures order). v2 channels name one
 * category, checked against the key when subscribed.
 */
import { hasPermission } from '../../domain/account.ts';
import { parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import { permissionAreaOf } from '../routes/trading-service.ts';
import type { Services } from '../services.ts';
import type { Batch } from './batch.ts';
import type { Channel } from './channels.ts';
import type { Subscription } from './connection.ts';
import { v3FillPush } from '../wire/orders.ts';
import { pushText } from './messages.ts';
import {
  positionHistoryRow,
  positionRows,
  v2AccountRows,
  v2FillRow,
  v2OrderRow,
  v3AccountRow,
  v3OrderRow,
  v2PlanRow,
  v3PlanRow,
} from './private-feed.ts';

type Row = Record<string, unknown>;

/** The categories a subscription's key may read, for a channel that spans them all. */
function readableCategories(sub: Subscription): string[] {
  const codes = sub.connection.key?.permissions ?? [];
  return V3_CATEGORIES.filter((category) => hasPermission(codes, permissionAreaOf(category), false));
}

function matches(channel: Channel, category: string, symbol: string, readable: readonly string[]): boolean {
  if (channel.category !== null && channel.category !== category) return false;
  if (channel.category === null && !readable.includes(parseCategory(category) ?? '')) return false;
  return channel.symbol === '' || channel.symbol === symbol;
}

function accountRows(services: Services, channel: Channel, uid: string): Map<string, Row> {
  const { state, books } = services.sequencer.exchange;
  if (channel.dialect === 'v3') return new Map([['UTA', v3AccountRow(state, uid)]]);
  return v2AccountRows(state, books, uid, channel.category as Category, channel.symbol);
}

function positionsOf(services: Services, channel: Channel, uid: string): Row[] {
  const { state, books } = services.sequencer.exchange;
  return positionRows(state, books, uid, channel.category, channel.dialect);
}

/** Account rows that changed since the subscription's last push (all of them the first time). */
function changedAccountRows(sub: Subscription, rows: Map<string, Row>): Row[] {
  const changed: Row[] = [];
  for (const [key, row] of rows) {
    const text = JSON.stringify(row);
    if (sub.lastRows.get(key) === text) continue;
    sub.lastRows.set(key, text);
    changed.push(row);
  }
  return changed;
}

export function privateSnapshot(services: Services, sub: Subscription, nowMs: number): void {
  const { channel } = sub;
  const uid = sub.connection.uid;
  if (!uid) return;
  if (channel.kind === 'account') {
    const rows = changedAccountRows(sub, accountRows(services, channel, uid));
    sub.connection.send(pushText(channel, 'snapshot', rows, nowMs));
  } else if (channel.kind === 'positions') {
    const rows = positionsOf(services, channel, uid);
    sub.lastText = JSON.stringify(rows);
    sub.connection.send(pushText(channel, 'snapshot', rows, nowMs));
  }
}

/** Rows of the batch's own events for an event channel (orders, fill, positions-history). */
function eventRows(batch: Batch, channel: Channel, uid: string, readable: readonly string[]): Row[] {
  if (channel.kind === 'orders') {
    return (batch.orders.get(uid) ?? [])
      .filter(({ order }) => matches(channel, order.category, order.symbol, readable))
      .map(({ order, latestFill }) =>
        channel.dialect === 'v2' ? v2OrderRow(order, latestFill) : v3OrderRow(order),
      );
  }
  if (channel.kind === 'fill') {
    return (batch.fills.get(uid) ?? [])
      .filter((fill) => matches(channel, fill.category, fill.symbol, readable))
      .map((fill) => (channel.dialect === 'v2' ? v2FillRow(fill, fill.clientOid) : v3FillPush(fill)));
  }
  if (channel.kind === 'orders-algo') {
    return (batch.plans.get(uid) ?? [])
      .filter((plan) => matches(channel, plan.category, plan.symbol, readable))
      .map((plan) => (channel.dialect === 'v2' ? v2PlanRow(plan) : v3PlanRow(plan)));
  }
  if (channel.kind === 'positions-history') {
    return (batch.closed.get(uid) ?? [])
      .filter((closed) => matches(channel, closed.category, closed.symbol, readable))
      .map(positionHistoryRow);
  }
  return [];
}

export function privatePushes(
  services: Services,
  batch: Batch,
  uid: string,
  subs: Iterable<Subscription>,
  nowMs: number,
): [Subscription, string][] {
  const pushes: [Subscription, string][] = [];
  const eventTexts = new Map<string, string | null>();
  const stateRows = new Map<string, Map<string, Row> | Row[]>();
  for (const sub of subs) {
    const { channel } = sub;
    if (channel.kind === 'account' || channel.kind === 'positions') {
      let rows = stateRows.get(channel.key);
      if (!rows) {
        rows =
          channel.kind === 'account'
            ? accountRows(services, channel, uid)
            : positionsOf(services, channel, uid);
        stateRows.set(channel.key, rows);
      }
      if (rows instanceof Map) {
        const changed = changedAccountRows(sub, rows);
        if (changed.length > 0) pushes.push([sub, pushText(channel, 'snapshot', changed, nowMs)]);
      } else {
        const text = JSON.stringify(rows);
        if (text === sub.lastText) continue;
        sub.lastText = text;
        pushes.push([sub, pushText(channel, 'snapshot', rows, nowMs)]);
      }
      continue;
    }
    // Connections of one account may hold keys of different permissions.
    const readable = channel.category === null ? readableCategories(sub) : [];
    const textKey = `${channel.key}|${readable.join(',')}`;
    let text = eventTexts.get(textKey);
    if (text === undefined) {
      const rows = eventRows(batch, channel, uid, readable);
      text = rows.length > 0 ? pushText(channel, 'snapshot', rows, nowMs) : null;
      eventTexts.set(textKey, text);
    }
    if (text !== null) pushes.push([sub, text]);
  }
  // Orders before their fills, then positions and balances (a stable sort keeps the rest).
  return pushes.sort((a, b) => (RANK[a[0].channel.kind] ?? 9) - (RANK[b[0].channel.kind] ?? 9));
}

const RANK: Partial<Record<Channel['kind'], number>> = {
  orders: 0,
  'orders-algo': 1,
  fill: 2,
  positions: 3,
  account: 4,
  'positions-history': 5,
};
