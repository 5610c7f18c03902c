/**
 * Passphrases already verified against a key, so that a signed request costs one HMAC and
 * the scrypt is paid once per key per process.
 *
 * Held safely: an entry is HMAC-SHA256 under a random key made when the process starts (and
 * never stored) of the API key and the passphrase, not the passphrase nor a plain digest of
 * it that could be matched against a dictionary offline. Each entry remembers the key's
 * passphrase hash and sealed secret when it was verified; when either changes (the key was
 * modified) or the key is gone, the entry no longer matches and the next request is checked
 * again. One entry per key (the last passphrase verified), so memory is bounded by the keys.
 */
import { randomBytes } from 'node:crypto';
import type { ApiKeyRecord } from '../../domain/account.ts';
import { HmacKey, sameText } from './hmac-key.ts';

interface Verified {
  /** base64 */
  tag: string;
  passphraseHash: string;
  secretCipher: string;
}

export class PassphraseCache {
  /** 48 random bytes as 64 base64 characters: one HMAC block of ASCII (hmac-key.ts). */
  private readonly processKey = new HmacKey(randomBytes(48).toString('base64'));
  private readonly verified = new Map<string, Verified>();

  private tag(apiKey: string, passphrase: string): string {
    return this.processKey.base64(`${apiKey}\0${passphrase}`);
  }

  /** True when `passphrase` was verified for this key as it stands now. */
  has(key: ApiKeyRecord, passphrase: string): boolean {
    const entry = this.verified.get(key.apiKey);
    if (!entry) return false;
    if (entry.passphraseHash !== key.passphraseHash || entry.secretCipher !== key.secretCipher) {
      this.verified.delete(key.apiKey);
      return false;
    }
    return sameText(entry.tag, this.tag(key.apiKey, passphrase));
  }

  /**
   * Names a check of `passphrase` against the key as it stands (its hash included), without
   * holding the passphrase itself: the same tag as an entry, as text.
   */
  checkName(key: ApiKeyRecord, passphrase: string): string {
    return `${key.passphraseHash}\0${this.tag(key.apiKey, passphrase)}`;
  }

  remember(key: ApiKeyRecord, passphrase: string): void {
    this.verified.set(key.apiKey, {
      tag: this.tag(key.apiKey, passphrase),
      passphraseHash: key.passphraseHash,
      secretCipher: key.secretCipher,
    });
  }
}
