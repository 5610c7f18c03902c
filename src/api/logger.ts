/**
 * One structured line per request: time, ip, method, path, uid, code, status, latency. Only
 * these fields are ever written: headers, query strings and bodies (where keys, signatures,
 * passphrases and secrets travel) are never logged, and `redact` guards any free text.
 */
export interface RequestLogLine {
  time: string;
  ip: string;
  method: string;
  path: string;
  uid: string;
  code: string;
  status: number;
  latencyMs: number;
}

export type LogSink = (line: string) => void;

export interface Logger {
  /** False when nothing is written (BOURSE_LOG=off): the edge then skips building lines. */
  readonly enabled: boolean;
  request(line: RequestLogLine): void;
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const SECRET_FIELD = /(secret|passphrase|sign|password|token|key|authorization)/i;

/** Replaces the values of secret-looking fields with "[redacted]". */
export function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields))
    out[name] = SECRET_FIELD.test(name) ? '[redacted]' : value;
  return out;
}

/**
 * `value` as JSON text for a log line, with the values of secret-looking fields replaced at
 * any depth and bigints as decimal strings (a command, whose cipher and hashes stay out).
 */
export function redactedJson(value: unknown): string {
  return JSON.stringify(value, (name, field: unknown) =>
    name !== '' && SECRET_FIELD.test(name) ? '[redacted]' : typeof field === 'bigint' ? String(field) : field,
  );
}

export function createLogger(sink: LogSink | null): Logger {
  const write = (record: Record<string, unknown>) => sink?.(JSON.stringify(record));
  return {
    enabled: sink !== null,
    request(line) {
      write({ ...line, kind: 'request' });
    },
    info(message, fields = {}) {
      write({ time: new Date().toISOString(), level: 'info', message, ...redact(fields) });
    },
    error(message, fields = {}) {
      write({ time: new Date().toISOString(), level: 'error', message, ...redact(fields) });
    },
  };
}
