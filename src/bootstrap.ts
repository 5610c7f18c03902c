/**
 * First start: the default instruments and index prices, a funded demo account and an API
 * key for it. Runs only on an empty store; a second start reuses everything stored.
 */
import type { Command } from './domain/commands.ts';
import { DEFAULT_PERMISSIONS } from './domain/account.ts';
import { parseMoney } from './domain/money.ts';
import type { PositionMode } from './domain/position.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from './engine/instruments/catalogue.ts';
import type { Clock } from './ports/clock.ts';
import type { Sequencer } from './runtime/sequencer.ts';
import { issueApiKey, type IssuedKey } from './security/key-issuer.ts';
import type { SecretBox } from './security/secrets.ts';

/** The demo account's opening balances: wallet, coin, amount. */
export const DEMO_FUNDS: readonly [string, string, string][] = [
  ['spot', 'USDT', '100000'],
  ['spot', 'USDC', '100000'],
  ['spot', 'BTC', '2'],
  ['spot', 'ETH', '20'],
  ['usdt_futures', 'USDT', '100000'],
  ['usdc_futures', 'USDC', '100000'],
  ['coin_futures', 'BTC', '2'],
  ['susdt_futures', 'SUSDT', '100000'],
  ['susdc_futures', 'SUSDC', '100000'],
  ['scoin_futures', 'SBTC', '2'],
];

async function must(sequencer: Sequencer, command: Command): Promise<unknown> {
  const outcome = await sequencer.submit(command);
  if (!outcome.ok) throw new Error(`bootstrap: ${command.type} failed with ${outcome.code}`);
  return outcome.value;
}

export async function seedInstruments(sequencer: Sequencer, clock: Clock): Promise<void> {
  for (const instrument of defaultCatalogue()) {
    await must(sequencer, { type: 'AddInstrument', timeMs: clock.now(), instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin];
    if (indexPrice) {
      const { category, symbol } = instrument;
      await must(sequencer, { type: 'SetIndexPrice', timeMs: clock.now(), category, symbol, indexPrice });
    }
  }
}

export async function seedDemoAccount(
  sequencer: Sequencer,
  clock: Clock,
  box: SecretBox,
  positionMode: PositionMode,
): Promise<IssuedKey & { uid: string }> {
  const { uid } = (await must(sequencer, {
    type: 'CreateAccount',
    timeMs: clock.now(),
    kind: 'main',
    parentUid: null,
    mode: 'classic',
    label: 'demo',
    positionMode,
  })) as { uid: string };
  for (const [wallet, coin, amount] of DEMO_FUNDS) {
    const minor = parseMoney(amount) ?? 0n;
    await must(sequencer, {
      type: 'Deposit',
      timeMs: clock.now(),
      uid,
      coin,
      amount: minor,
      wallet,
      subType: 'onchain',
    });
  }
  const issued = await issueApiKey(sequencer, box, {
    uid,
    permissions: [...DEFAULT_PERMISSIONS],
    ipList: [],
    label: 'demo',
    timeMs: clock.now(),
  });
  if (!issued.ok) throw new Error(`bootstrap: demo key failed with ${issued.code}`);
  return { uid, ...issued.value };
}
