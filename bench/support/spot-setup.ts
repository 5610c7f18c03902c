/**
 * The start of a benchmark's command stream: the default catalogue's spot instruments (every
 * instrument of it with `wholeCatalogue`, as a fresh server lists them) with their index
 * prices, then `accounts` main accounts, each funded with plenty of USDT and BTC on its spot
 * wallet. Returns the accounts' uids.
 */
import type { Command } from '../../src/domain/commands.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';

/** Runs commands (failing loudly) and hands out increasing times. */
export interface CommandRunner {
  run(command: Command): unknown;
  tick(): number;
}

export function fundedSpotAccounts(
  runner: CommandRunner,
  accounts: number,
  wholeCatalogue = false,
): string[] {
  const catalogue = defaultCatalogue();
  const listed = wholeCatalogue ? catalogue : catalogue.filter((item) => item.category === 'SPOT');
  for (const instrument of listed) {
    runner.run({ type: 'AddInstrument', timeMs: runner.tick(), instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin] ?? '1';
    const { category, symbol } = instrument;
    runner.run({ type: 'SetIndexPrice', timeMs: runner.tick(), category, symbol, indexPrice });
  }
  const uids: string[] = [];
  for (let index = 0; index < accounts; index += 1) {
    const { uid } = runner.run({
      type: 'CreateAccount',
      timeMs: runner.tick(),
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: '',
    }) as { uid: string };
    for (const [coin, amount] of [
      ['USDT', 10n ** 17n],
      ['BTC', 10n ** 13n],
    ] as const) {
      runner.run({
        type: 'Deposit',
        timeMs: runner.tick(),
        uid,
        coin,
        amount,
        wallet: 'spot',
        subType: 'onchain',
      });
    }
    uids.push(uid);
  }
  return uids;
}
