/**
 * Accounts, API keys and their permissions.
 *
 * A key's permissions are the venue's permission codes (spec, account-information table).
 * The create-key endpoints speak in perm names (spot_trade, …); PERM_NAME_CODES maps them.
 */
import type { PositionMode } from './position.ts';
import { nameTable, ownEntry } from './name-table.ts';

export const ACCOUNT_KINDS = ['main', 'sub', 'virtual'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const ACCOUNT_MODES = ['classic', 'unified'] as const;
export type AccountMode = (typeof ACCOUNT_MODES)[number];

export interface Account {
  uid: string;
  kind: AccountKind;
  /** The main account's uid for sub and virtual accounts; null for a main account. */
  parentUid: string | null;
  mode: AccountMode;
  label: string;
  createdTimeMs: number;
  /**
   * The futures position mode of every product type the account has not set itself
   * (set-position-mode); absent means one-way (engine/futures/settings.ts).
   */
  positionMode?: PositionMode;
  /** Virtual sub-accounts: the generated e-mail-like name (create-virtual-subaccount). */
  name?: string;
  /** Sub-accounts: `freeze` stops every key of the account (40013); absent means normal. */
  status?: 'normal' | 'freeze';
  /** Sub-accounts: the perm names the main account granted (modify-virtual-subaccount). */
  permList?: string[];
  updatedTimeMs?: number;
}

/** The insurance fund's account (below the first uid handed out; created on first use). */
export const INSURANCE_FUND_UID = '1000000000';

export interface ApiKeyRecord {
  apiKey: string;
  uid: string;
  /** AES-256-GCM ciphertext of the secret under the server key (never the secret itself). */
  secretCipher: string;
  /** scrypt hash of the passphrase, `salt:hash`, both hex. */
  passphraseHash: string;
  permissions: string[];
  ipList: string[];
  label: string;
  createdTimeMs: number;
  /** Set by the operator: every request and WebSocket login with the key is refused (40013). */
  frozen?: boolean;
}

export const READ_ONLY_PERMISSIONS = [
  'coor',
  'cpor',
  'stor',
  'smor',
  'ttor',
  'wtor',
  'taxr',
  'chor',
  'p2pr',
] as const;
export const READ_WRITE_PERMISSIONS = [
  'coow',
  'cpow',
  'stow',
  'smow',
  'ttow',
  'wtow',
  'wwow',
  'chow',
  'p2p',
  'pllw',
  'pllr',
  'taxw',
] as const;
export const PERMISSION_CODES: readonly string[] = [...READ_ONLY_PERMISSIONS, ...READ_WRITE_PERMISSIONS];

export const PERM_NAMES = ['spot_trade', 'margin_trade', 'contract_trade', 'transfer', 'read'] as const;
export type PermName = (typeof PERM_NAMES)[number];

export const PERM_NAME_CODES: Readonly<Record<PermName, readonly string[]>> = nameTable({
  spot_trade: ['stow', 'stor'],
  margin_trade: ['smow', 'smor'],
  contract_trade: ['coow', 'cpow', 'coor', 'cpor'],
  transfer: ['wtow', 'wtor'],
  read: ['coor', 'cpor', 'stor', 'smor', 'wtor', 'taxr', 'chor'],
});

/** What a key made by the operator without an explicit list may do: trade, transfer, read. */
export const DEFAULT_PERMISSIONS: readonly string[] = [
  'stow',
  'stor',
  'smow',
  'smor',
  'coow',
  'coor',
  'cpow',
  'cpor',
  'wtow',
  'wtor',
  'taxr',
  'chor',
  'chow',
];

/**
 * Turns perm names and/or permission codes into the set of codes a key holds; null when one
 * is neither. Names are looked up as own keys only, so `constructor` or `__proto__` is unknown.
 */
export function permissionCodesOf(values: readonly string[]): string[] | null {
  const codes = new Set<string>();
  for (const value of values) {
    const lower = value.toLowerCase();
    const named = ownEntry<readonly string[]>(PERM_NAME_CODES, lower);
    if (named) named.forEach((code) => codes.add(code));
    else if (PERMISSION_CODES.includes(lower)) codes.add(lower);
    else return null;
  }
  return [...codes].sort();
}

/** The perm names a key's codes amount to (a name counts when its write code is held). */
export function permNamesOf(codes: readonly string[]): PermName[] {
  const held = new Set(codes);
  return PERM_NAMES.filter((name) => PERM_NAME_CODES[name].every((code) => held.has(code)));
}

/**
 * Permission areas an endpoint needs. `write` needs the area's read-write code; a read needs
 * either code of the area.
 */
export type PermissionArea =
  'spot' | 'margin' | 'futures_orders' | 'futures_positions' | 'wallet' | 'withdraw' | 'subaccount';
export const AREA_CODES: Readonly<Record<PermissionArea, { read: string; write: string }>> = nameTable({
  spot: { read: 'stor', write: 'stow' },
  margin: { read: 'smor', write: 'smow' },
  futures_orders: { read: 'coor', write: 'coow' },
  futures_positions: { read: 'cpor', write: 'cpow' },
  wallet: { read: 'wtor', write: 'wtow' },
  // Withdrawals need their own code (wwow); their records read with the wallet's.
  withdraw: { read: 'wtor', write: 'wwow' },
  subaccount: { read: 'chor', write: 'chow' },
});

/** True when the codes allow `write` (or read) access to the area, or to any of the areas. */
export function hasPermission(
  codes: readonly string[],
  area: PermissionArea | readonly PermissionArea[],
  write: boolean,
): boolean {
  const areas: readonly PermissionArea[] = typeof area === 'string' ? [area] : area;
  return areas.some((one) => {
    const { read, write: writeCode } = AREA_CODES[one];
    return codes.includes(writeCode) || (!write && codes.includes(read));
  });
}
