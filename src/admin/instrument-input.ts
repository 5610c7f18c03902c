/**
 * Instrument fields from an operator request: every field of the instrument table, as
 * strings; `supportMarginCoins` (or `marginCoins`) as a list. Whole-record validation is
 * the engine's (engine/instruments/instruments.ts).
 */
import { CATEGORIES } from '../domain/category.ts';
import type { Instrument } from '../domain/instrument.ts';
import { defaultCatalogue } from '../engine/instruments/catalogue.ts';
import { boundLength, optionalStringList, requiredEnum, requiredString, type Fields } from '../api/params.ts';
import { reject } from '../api/request.ts';

const TEMPLATE = defaultCatalogue()[0] as Instrument;
const STRING_FIELDS = Object.keys(TEMPLATE).filter(
  (name) => !['symbol', 'category', 'marginCoins'].includes(name),
) as (keyof Instrument)[];

export function parseInstrumentFields(body: Fields, creating: boolean): Partial<Instrument> {
  const fields: Partial<Record<keyof Instrument, unknown>> = {};
  if (creating) {
    fields.category = requiredEnum(body, 'category', CATEGORIES);
    fields.symbol = requiredString(body, 'symbol').toUpperCase();
  }
  for (const name of STRING_FIELDS) {
    const value = body[name];
    if (value === undefined) {
      if (creating) fields[name] = name === 'status' ? 'online' : '';
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number') reject('PARAM_ERROR', name);
    fields[name] = String(value);
    boundLength(name, fields[name] as string);
  }
  const coins =
    optionalStringList(body, 'supportMarginCoins', 16) ?? optionalStringList(body, 'marginCoins', 16);
  if (coins) fields.marginCoins = coins.map((coin) => coin.toUpperCase());
  else if (creating) fields.marginCoins = [];
  return fields as Partial<Instrument>;
}
