/**
 * PostgreSQL settings that cost bourse's commits, read from the store's own sessions (so a
 * per-database or per-role setting counts), each with what to set instead. Logged once at
 * start (src/server.ts); the figures behind each are in docs/configuration.md.
 */

/** A query returning rows of one text column `value`. */
type SettingQuery = (text: string) => Promise<{ value?: unknown }[]>;

interface Rule {
  setting: string;
  /** True when the setting's value costs commits. */
  costly: (value: string) => boolean;
  advice: string;
}

const RULES: readonly Rule[] = [
  {
    setting: 'wal_init_zero',
    costly: (value) => value === 'on',
    advice:
      'wal_init_zero is on: every new 16 MiB WAL segment is zero-filled and synced before the commit ' +
      'needing it returns (a ~50 ms stall per segment until the server recycles them); set it off ' +
      '(ALTER DATABASE … SET wal_init_zero = off), see docs/configuration.md',
  },
];

/** Advice for each setting of the store's sessions that costs its commits (none: []). */
export async function settingsAdvice(query: SettingQuery): Promise<string[]> {
  const advice: string[] = [];
  for (const rule of RULES) {
    // missing_ok: a server without the setting (older than PostgreSQL 12) has nothing to advise.
    const [row] = await query(`SELECT current_setting('${rule.setting}', true) AS value`);
    const value = row?.value;
    if (typeof value === 'string' && rule.costly(value)) advice.push(rule.advice);
  }
  return advice;
}
