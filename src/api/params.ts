/**
 * Readers for request fields: each returns the typed value or rejects with the venue's code.
 * Enum values are accepted in any case (clients send "GTC", "Open", "YES").
 * Every string is bounded in length (src/api/field-limits.ts) before anything else reads it.
 */
import { isDecimalText } from '../domain/decimal.ts';
import { fieldTooLong } from './field-limits.ts';
import { reject, Rejected } from './request.ts';

export type Fields = Record<string, unknown>;

export function asObject(body: unknown, name = 'body'): Fields {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) reject('PARAM_INVALID', name);
  return body as Fields;
}

export function asArray(body: unknown, name = 'body'): unknown[] {
  if (!Array.isArray(body)) reject('PARAM_INVALID', name);
  return body;
}

/** A string field; numbers are accepted and printed as sent (clients sometimes send them). */
export function optionalString(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') reject('PARAM_ERROR', name);
  boundLength(name, value);
  return value;
}

/** Rejects a text too long for field `name` (the field's own bound, or the general one). */
export function boundLength(name: string, value: string): void {
  const failure = fieldTooLong(name, value);
  if (failure) throw new Rejected(failure);
}

export function requiredString(fields: Fields, name: string): string {
  const value = optionalString(fields, name);
  if (value === undefined) reject('PARAM_EMPTY', name);
  return value;
}

export function optionalEnum<T extends string>(
  fields: Fields,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = optionalString(fields, name);
  if (value === undefined) return undefined;
  // Most clients send the listed spelling: found without lower-casing every candidate.
  const exact = values.indexOf(value as T);
  if (exact >= 0) return values[exact];
  const lower = value.toLowerCase();
  const match = values.find((candidate) => candidate.toLowerCase() === lower);
  if (match === undefined) reject('PARAM_ERROR', name);
  return match;
}

export function requiredEnum<T extends string>(fields: Fields, name: string, values: readonly T[]): T {
  const value = optionalEnum(fields, name, values);
  if (value === undefined) reject('PARAM_EMPTY', name);
  return value;
}

export function optionalDecimal(fields: Fields, name: string): string | undefined {
  const value = optionalString(fields, name);
  if (value === undefined) return undefined;
  if (!isDecimalText(value)) reject('PARAM_ERROR', name);
  return value;
}

export function requiredDecimal(fields: Fields, name: string): string {
  const value = optionalDecimal(fields, name);
  if (value === undefined) reject('PARAM_EMPTY', name);
  return value;
}

/** A non-negative integer (timestamps, limits); rejects anything else. */
export function optionalInteger(fields: Fields, name: string): number | undefined {
  const value = optionalString(fields, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,16}$/.test(value)) reject('PARAM_ERROR', name);
  return Number(value);
}

export function optionalStringList(fields: Fields, name: string, maxLength: number): string[] | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > maxLength) reject('PARAM_ERROR', name);
  for (const item of value) {
    if (typeof item !== 'string') reject('PARAM_ERROR', name);
    boundLength(name, item);
  }
  return value as string[];
}
