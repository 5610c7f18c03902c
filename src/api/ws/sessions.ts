/**
 * Logged-in WebSocket sessions follow their API key and account after login. After every
 * durable batch (before its pushes go out), each key with open sessions is compared with
 * what it was: a key revoked, re-owned or given a new passphrase or secret, or an account
 * frozen (the same standing a signed request needs: auth/standing.ts) ends its sessions; a
 * key whose permissions or IP whitelist changed narrows them: a session whose IP left the
 * whitelist ends, and private subscriptions the key may no longer read are dropped.
 *
 * Why on state, not on named events: keys and accounts change through several commands
 * (ModifyApiKey, ModifySubAccount, operator actions), some of which emit no event; comparing
 * the state covers every path, present and future. Cost: one Map lookup and a few compares
 * per key with sessions per batch; nothing per connection unless its key changed.
 */
import { hasPermission, type ApiKeyRecord } from '../../domain/account.ts';
import type { EngineState } from '../../engine/state.ts';
import { standingOf } from '../auth/standing.ts';
import type { Channel } from './channels.ts';
import { WS_CODES, wsError, type WsError } from './codes.ts';
import type { Connection } from './connection.ts';

/** Whether a key with these permission codes may read a private channel (any of its areas). */
export function keyReads(codes: readonly string[], channel: Channel): boolean {
  return channel.permissions.some((area) => hasPermission(codes, area, false));
}

/** The venue's refusal of a private channel the key may not read. */
export function permissionError(channel: Channel): WsError {
  return wsError(WS_CODES.ILLEGAL_REQUEST, `Incorrect permissions, need ${channel.permissions[0]} read`);
}

/** What a key was when its sessions were last reviewed. */
export interface KeySnapshot {
  apiKey: string;
  uid: string;
  permissions: readonly string[];
  ipList: readonly string[];
  passphraseHash: string;
  secretCipher: string;
}

export type KeyReview =
  | { kind: 'keep' }
  | { kind: 'end'; failure: WsError }
  | { kind: 'changed'; key: ApiKeyRecord; snapshot: KeySnapshot };

export function keySnapshot(key: ApiKeyRecord): KeySnapshot {
  return {
    apiKey: key.apiKey,
    uid: key.uid,
    permissions: [...key.permissions],
    ipList: [...key.ipList],
    passphraseHash: key.passphraseHash,
    secretCipher: key.secretCipher,
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

const ended = (code: WsError['code'], reason: string) => ({
  kind: 'end' as const,
  failure: wsError(code, `session ended: ${reason}`),
});

/** How the sessions of the key in `before` stand in `state`. */
export function reviewKey(state: EngineState, before: KeySnapshot): KeyReview {
  const standing = standingOf(state, before.apiKey);
  if ('refused' in standing) {
    return standing.refused === 'USER_STATUS_ABNORMAL'
      ? ended(WS_CODES.LOGIN_FAILED, `${standing.frozen} frozen`)
      : ended(WS_CODES.INVALID_ACCESS_KEY, 'API key revoked');
  }
  const { key } = standing;
  if (key.uid !== before.uid) return ended(WS_CODES.INVALID_ACCESS_KEY, 'API key revoked');
  if (key.passphraseHash !== before.passphraseHash || key.secretCipher !== before.secretCipher)
    return ended(WS_CODES.LOGIN_FAILED, 'API key changed');
  if (sameList(key.permissions, before.permissions) && sameList(key.ipList, before.ipList))
    return { kind: 'keep' };
  return { kind: 'changed', key, snapshot: keySnapshot(key) };
}

export interface SessionActions {
  /** Sends `failure` and closes the connection. */
  end(connection: Connection, failure: WsError): void;
  /** The key now reads less: drop the private subscriptions it no longer allows. */
  narrow(connection: Connection, key: ApiKeyRecord): void;
}

interface KeySessions {
  snapshot: KeySnapshot;
  connections: Set<Connection>;
}

export class Sessions {
  private readonly byKey = new Map<string, KeySessions>();

  constructor(private readonly actions: SessionActions) {}

  /**
   * A connection logged in with `key`. A key that already has sessions keeps the snapshot of
   * its last review, so a change not reviewed yet still reaches the older sessions.
   */
  add(connection: Connection, key: ApiKeyRecord): void {
    let entry = this.byKey.get(key.apiKey);
    if (!entry) this.byKey.set(key.apiKey, (entry = { snapshot: keySnapshot(key), connections: new Set() }));
    entry.connections.add(connection);
  }

  remove(connection: Connection, apiKey: string): void {
    const entry = this.byKey.get(apiKey);
    if (!entry) return;
    entry.connections.delete(connection);
    if (entry.connections.size === 0) this.byKey.delete(apiKey);
  }

  review(state: EngineState): void {
    for (const [apiKey, entry] of this.byKey) {
      const review = reviewKey(state, entry.snapshot);
      if (review.kind === 'keep') continue;
      if (review.kind === 'end') {
        this.byKey.delete(apiKey);
        for (const connection of entry.connections) this.actions.end(connection, review.failure);
        continue;
      }
      entry.snapshot = review.snapshot;
      for (const connection of entry.connections) {
        const { ipList } = review.key;
        if (ipList.length > 0 && !ipList.includes(connection.ip)) {
          entry.connections.delete(connection);
          this.actions.end(
            connection,
            wsError(
              WS_CODES.LOGIN_FAILED,
              `session ended: IP ${connection.ip} is not in the key's whitelist`,
            ),
          );
        } else this.actions.narrow(connection, review.key);
      }
      if (entry.connections.size === 0) this.byKey.delete(apiKey);
    }
  }
}
