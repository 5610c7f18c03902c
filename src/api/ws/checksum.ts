/**
 * The venue's order-book checksum: CRC-32 (IEEE, as zlib) over the first 25 levels written as
 * "bidPrice:bidSize:askPrice:askSize:…" — level i's bid then level i's ask, a side that has
 * run out simply skipped — using the price and size strings exactly as sent, read as a signed
 * 32-bit integer. (ccxt's bitget watchOrderBook verifies exactly this.)
 */
import type { Level } from '../../market/market-data.ts';

export const CHECKSUM_LEVELS = 25;

const TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 of the UTF-8 bytes of `text`, as a signed 32-bit integer. */
export function crc32(text: string): number {
  let crc = -1;
  for (const byte of Buffer.from(text, 'utf8')) crc = (TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ -1) | 0;
}

export function bookChecksum(bids: readonly Level[], asks: readonly Level[]): number {
  const parts: string[] = [];
  for (let index = 0; index < CHECKSUM_LEVELS; index += 1) {
    const bid = bids[index];
    const ask = asks[index];
    if (bid) parts.push(bid[0], bid[1]);
    if (ask) parts.push(ask[0], ask[1]);
  }
  return crc32(parts.join(':'));
}
