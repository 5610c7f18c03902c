/**
 * A client for the operator API (docs/operator.md): bearer token, JSON bodies, the venue's
 * envelope. `call` returns the raw response; the named methods return `data` and throw when
 * the answer is not a success, so a test reads as a list of steps.
 */
import { send, type ApiResponse } from './http.ts';

export interface AccountView {
  uid: string;
  kind: string;
  parentUid: string | null;
  mode: string;
  label: string;
  createdTime: string;
  wallets: Record<string, Record<string, { available: string; frozen: string; borrowed: string }>>;
  apiKeys: { apiKey: string; label: string; permissions: string[]; ipList: string[] }[];
}

export interface IssuedKeyView {
  apiKey: string;
  secretKey: string;
  passphrase: string;
  permissions: string[];
  ipList: string[];
  label: string;
}

export interface FundingView {
  id: string;
  txId: string;
  uid: string;
  coin: string;
  amount: string;
  wallet: string;
  type: string;
  status: string;
  ts: string;
}

export class OperatorClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
  ) {}

  call<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.token !== null) headers.authorization = `Bearer ${this.token}`;
    return send<T>(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  private async data<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.call<T>(method, path, body);
    if (response.status !== 200 || response.body?.code !== '00000') {
      throw new Error(`${method} ${path} answered ${response.status} ${response.text}`);
    }
    return response.body.data;
  }

  createAccount(body: { mode?: string; kind?: string; parentUid?: string; label?: string } = {}) {
    return this.data<{ uid: string }>('POST', '/admin/v1/accounts', body);
  }

  getAccount(uid: string) {
    return this.data<AccountView>('GET', `/admin/v1/accounts/${uid}`);
  }

  createApiKey(
    uid: string,
    body: { permissions?: string[]; ipList?: string[]; passphrase?: string; label?: string } = {},
  ) {
    return this.data<IssuedKeyView>('POST', `/admin/v1/accounts/${uid}/api-keys`, body);
  }

  deposit(uid: string, body: { coin: string; amount: string; wallet?: string; subType?: string }) {
    return this.data<FundingView>('POST', `/admin/v1/accounts/${uid}/deposits`, body);
  }

  withdraw(uid: string, body: { coin: string; amount: string; wallet?: string; subType?: string }) {
    return this.data<FundingView>('POST', `/admin/v1/accounts/${uid}/withdrawals`, body);
  }

  setPrice(body: { category: string; symbol: string; indexPrice: string }) {
    return this.data<{ category: string; symbol: string; indexPrice: string }>(
      'PUT',
      '/admin/v1/prices',
      body,
    );
  }

  listInstruments(category?: string) {
    const query = category ? `?category=${encodeURIComponent(category)}` : '';
    return this.data<Record<string, string>[]>('GET', `/admin/v1/instruments${query}`);
  }

  addInstrument(body: Record<string, unknown>) {
    return this.data<Record<string, string>>('POST', '/admin/v1/instruments', body);
  }

  patchInstrument(body: Record<string, unknown>) {
    return this.data<Record<string, string>>('PATCH', '/admin/v1/instruments', body);
  }

  getClock() {
    return this.data<{ mode: string; nowMs: string; engineTimeMs: string }>('GET', '/admin/v1/clock');
  }

  advanceClock(ms: number | string) {
    return this.data<{ mode: string; nowMs: string }>('POST', '/admin/v1/clock/advance', { ms: String(ms) });
  }
}

/** A fresh account with a key, funded with `funds` ([coin, amount] in its default wallet). */
export async function accountWithKey(
  operator: OperatorClient,
  options: {
    mode?: 'classic' | 'unified';
    permissions?: string[];
    ipList?: string[];
    funds?: [string, string][];
  } = {},
): Promise<{ uid: string; key: IssuedKeyView }> {
  const { uid } = await operator.createAccount({ mode: options.mode ?? 'classic' });
  for (const [coin, amount] of options.funds ?? []) await operator.deposit(uid, { coin, amount });
  const key = await operator.createApiKey(uid, {
    ...(options.permissions ? { permissions: options.permissions } : {}),
    ...(options.ipList ? { ipList: options.ipList } : {}),
  });
  return { uid, key };
}
