/**
 * Display helpers. Figures arrive as decimal strings and are shown as sent (never through a
 * float), except where a chart or a sum needs a number: those are marked `approx`.
 */

export function time(ms: string | number | undefined): string {
  const value = Number(ms);
  if (!ms || !Number.isFinite(value)) return '';
  return new Date(value).toISOString().replace('T', ' ').slice(0, 19);
}

/** A ratio as sent ("0.01234") shown as a percentage with two decimals. */
export function percent(ratio: string | undefined): string {
  if (ratio === undefined || ratio === '') return '';
  const value = Number(ratio) * 100;
  return `${value > 0 ? '+' : ''}${value.toFixed(2)} %`;
}

export function signClass(ratio: string | undefined): string {
  const value = Number(ratio);
  return value > 0 ? 'up' : value < 0 ? 'down' : '';
}

/** A decimal string cut to `digits` decimals for a compact column (display only). */
export function short(decimal: string | undefined, digits = 2): string {
  if (decimal === undefined || decimal === '') return '';
  const [whole = '', fraction = ''] = decimal.split('.');
  return fraction && digits > 0 ? `${whole}.${fraction.slice(0, digits)}` : whole;
}

/** approx: a decimal string as a number, for charts and sums only. */
export function approx(decimal: string | undefined): number {
  const value = Number(decimal);
  return Number.isFinite(value) ? value : 0;
}
