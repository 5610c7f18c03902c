/**
 * First start: the default instruments and index prices, a funded demo account and an API
 * key for it (fixed credentials when BOURSE_DEMO_* give them), and the liquidity provider's
 * house account. Runs on an empty store (a second start reuses everything stored) and, into
 * a fresh engine, for the operator's reset (src/admin/reset.ts): one definition of the
 * first-start state for both.
 */
import type { Config } from './config.ts';
import type { DemoCredentials } from './demo-credentials.ts';
import type { Command } from './domain/commands.ts';
import { DEFAULT_PERMISSIONS } from './domain/account.ts';
import { parseMoney } from './domain/money.ts';
import type { PositionMode } from './domain/position.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from './engine/instruments/catalogue.ts';
import type { Clock } from './ports/clock.ts';
import { LIQUIDITY_LABEL } from './market/liquidity.ts';
import { issueApiKey, type CommandSink, type IssuedKey } from './security/key-issuer.ts';
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

async function must(sequencer: CommandSink, command: Command): Promise<unknown> {
  const outcome = await sequencer.submit(command);
  if (!outcome.ok) throw new Error(`bootstrap: ${command.type} failed with ${outcome.code}`);
  return outcome.value;
}

export async function seedInstruments(sequencer: CommandSink, clock: Clock): Promise<void> {
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
  sequencer: CommandSink,
  clock: Clock,
  box: SecretBox,
  positionMode: PositionMode,
  fixed?: DemoCredentials,
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
    ...(fixed ?? {}),
  });
  if (!issued.ok) throw new Error(`bootstrap: demo key failed with ${issued.code}`);
  return { uid, ...issued.value };
}

export interface FirstStart {
  /** Create the demo account (BOURSE_SEED_DEMO), with these credentials when given. */
  demo: boolean;
  /** The futures position mode the demo account starts in (BOURSE_POSITION_MODE). */
  positionMode: PositionMode;
  demoCredentials?: DemoCredentials | undefined;
  /** Create the liquidity provider's house account (BOURSE_LIQUIDITY on). */
  liquidityAccount: boolean;
}

/** What a first start creates, from the settings. */
export function firstStartOf(config: Config): FirstStart {
  return {
    demo: config.seedDemo,
    positionMode: config.positionMode,
    demoCredentials: config.demoCredentials,
    liquidityAccount: config.market.liquidity.enabled,
  };
}

export interface Seeded {
  demo: (IssuedKey & { uid: string }) | null;
  liquidityUid: string | null;
}

/** Everything a first start creates, in its order (so uids are the same every time). */
export async function seedFirstStart(
  sequencer: CommandSink,
  clock: Clock,
  box: SecretBox,
  settings: FirstStart,
): Promise<Seeded> {
  await seedInstruments(sequencer, clock);
  const demo = settings.demo
    ? await seedDemoAccount(sequencer, clock, box, settings.positionMode, settings.demoCredentials)
    : null;
  let liquidityUid: string | null = null;
  if (settings.liquidityAccount) {
    const created = (await must(sequencer, {
      type: 'CreateAccount',
      timeMs: clock.now(),
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: LIQUIDITY_LABEL,
    })) as { uid: string };
    liquidityUid = created.uid;
  }
  return { demo, liquidityUid };
}
