/**
 * How the console talks to bourse: the operator API (`/admin/v1`, Bearer token), the public
 * REST API and the plain operations endpoints (`/health`, `/ready`, `/metrics`), all on the
 * page's own origin. A refusal keeps the venue's code and message (`ApiError`), so the page
 * shows exactly what the server said.
 *
 * The operator token lives in this tab's sessionStorage only (docs/console.md): readable by
 * this origin's scripts alone, gone when the tab closes, never sent anywhere but the
 * Authorization header of this origin's requests.
 */

const TOKEN_KEY = 'bourse.operatorToken';
const METRICS_TOKEN_KEY = 'bourse.metricsToken';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly msg: string,
    readonly status: number,
  ) {
    super(`${code} ${msg}`);
  }
}

interface Envelope<T> {
  code: string;
  msg: string;
  data: T;
}

const signOutListeners = new Set<() => void>();

export const session = {
  token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  signIn(token: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  signOut(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    for (const listener of signOutListeners) listener();
  },
  onSignOut(listener: () => void): () => void {
    signOutListeners.add(listener);
    return () => signOutListeners.delete(listener);
  },
  metricsToken(): string {
    return sessionStorage.getItem(METRICS_TOKEN_KEY) ?? '';
  },
  setMetricsToken(token: string): void {
    if (token) sessionStorage.setItem(METRICS_TOKEN_KEY, token);
    else sessionStorage.removeItem(METRICS_TOKEN_KEY);
  },
};

async function envelopeOf<T>(response: Response): Promise<T> {
  const text = await response.text();
  let parsed: Envelope<T> | null = null;
  try {
    parsed = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new ApiError(String(response.status), text.slice(0, 200) || response.statusText, response.status);
  }
  if (parsed.code !== '00000') throw new ApiError(parsed.code, parsed.msg, response.status);
  return parsed.data;
}

/** An operator API call; a 401 signs the tab out. `token` overrides the stored one (sign-in). */
export async function operator<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  token = session.token() ?? '',
): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/admin/v1${path}`, {
    method,
    headers,
    cache: 'no-store',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  try {
    return await envelopeOf<T>(response);
  } catch (error) {
    if (response.status === 401 && token === session.token()) session.signOut();
    throw error;
  }
}

/** A public venue endpoint (`/api/v2/…`, `/api/v3/…`), unsigned. */
export async function publicGet<T>(path: string, query: Record<string, string> = {}): Promise<T> {
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${path}${search ? `?${search}` : ''}`, { cache: 'no-store' });
  return envelopeOf<T>(response);
}

/** `/health`, `/ready` or `/metrics`: status and text, whatever the status. */
export async function plainGet(path: string): Promise<{ status: number; text: string }> {
  const token = session.metricsToken();
  const response = await fetch(path, {
    cache: 'no-store',
    ...(token && path === '/metrics' ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
  return { status: response.status, text: await response.text() };
}

/** A page of an operator list (`{list, cursor}`), followed up to `max` items. */
export async function allPages<T>(path: string, query: Record<string, string>, max: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const search = new URLSearchParams({ ...query, limit: '500', ...(cursor ? { cursor } : {}) });
    const page: { list: T[]; cursor: string | null } = await operator('GET', `${path}?${search}`);
    items.push(...page.list);
    cursor = page.cursor;
  } while (cursor && items.length < max);
  return items;
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.code} ${error.msg}`;
  return error instanceof Error ? error.message : String(error);
}
