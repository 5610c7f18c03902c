/**
 * BOURSE_CONVERT_SPREAD: what the house keeps of a convert trade (docs/configuration.md). A
 * quote's price is the two coins' index values less this fraction; 0.001 (0.1 %) by default,
 * at least 0 and below 0.5. A bad value stops the server with a message naming the variable.
 */
import { parseScaled } from '../../domain/decimal.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';

export interface ConvertSettings {
  /** Money-scaled fraction (MONEY_ONE is 1). */
  spread: bigint;
}

export const DEFAULT_CONVERT_SPREAD = '0.001';

export function parseConvertSettings(env: NodeJS.ProcessEnv): ConvertSettings {
  const text = env.BOURSE_CONVERT_SPREAD || DEFAULT_CONVERT_SPREAD;
  const spread = parseScaled(text, MONEY_SCALE);
  if (spread === null || spread < 0n || spread * 2n >= MONEY_ONE) {
    throw new Error(`BOURSE_CONVERT_SPREAD must be a decimal of at least 0 and below 0.5: "${text}"`);
  }
  return { spread };
}
