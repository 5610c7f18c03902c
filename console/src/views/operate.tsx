/**
 * Operate: every operator action as a form, answered with the server's data or its code and
 * message. The account's own actions (keys, deposits) are also on its page. The forms are in
 * operate-actions.ts and market-actions.ts; the feeds and the liquidity provider have panels.
 */
import { ActionForm, type Action } from '../components.tsx';
import { usePoll } from '../hooks.ts';
import { operator } from '../api.ts';
import { time } from '../format.ts';
import { BROKER_ACTIONS, MARKET_ACTIONS, VENUE_ACTIONS } from '../market-actions.ts';
import { ACCOUNT_ACTIONS, KEY_ACTIONS, MONEY_ACTIONS } from '../operate-actions.ts';
import { Feeds } from './feeds.tsx';
import { LiquidityProvider } from './liquidity.tsx';

function Clock() {
  const clock = usePoll(
    () => operator<{ mode: string; nowMs: string; engineTimeMs: string }>('GET', '/clock'),
    2_000,
    [],
  );
  return (
    <article>
      <header>
        <strong>Clock</strong>
      </header>
      {clock.data && (
        <dl class="facts" id="clock">
          <dt>Mode</dt>
          <dd>{clock.data.mode}</dd>
          <dt>Now</dt>
          <dd>{time(clock.data.nowMs)}</dd>
          <dt>Engine time</dt>
          <dd>{time(clock.data.engineTimeMs)}</dd>
        </dl>
      )}
      {clock.error && <p class="error">{clock.error}</p>}
      <ActionForm
        action={{
          id: 'clock-advance',
          title: 'Advance simulated clock',
          submitLabel: 'Advance',
          method: 'POST',
          path: '/clock/advance',
          fields: [{ name: 'ms', label: 'milliseconds', type: 'number', required: true, value: '60000' }],
        }}
        onDone={clock.refresh}
      />
    </article>
  );
}

function Group({ title, actions }: { title: string; actions: Action[] }) {
  return (
    <details open>
      <summary>
        <strong>{title}</strong>
      </summary>
      <div class="actions-grid">
        {actions.map((action) => (
          <ActionForm key={action.id} action={action} />
        ))}
      </div>
    </details>
  );
}

export function Operate() {
  return (
    <section>
      <h2>Operate</h2>
      <Group title="Accounts and keys" actions={[...ACCOUNT_ACTIONS, ...KEY_ACTIONS]} />
      <Group title="Deposits and withdrawals" actions={MONEY_ACTIONS} />
      <Group title="Prices and instruments" actions={MARKET_ACTIONS} />
      <Feeds />
      <Clock />
      <Group title="Brokers, agents and KYC" actions={BROKER_ACTIONS} />
      <LiquidityProvider />
      <Group title="Venue" actions={VENUE_ACTIONS} />
    </section>
  );
}
