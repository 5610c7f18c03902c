/**
 * An account's risk, from the `risk` of GET /admin/v1/accounts/{uid}: each margin wallet's
 * risk ratio (liabilities × 10 % ÷ net assets; liquidated at 100 %, transfers out stop at
 * 80 %) and each futures wallet's crossed risk rate (maintenance margin ÷ crossed equity;
 * liquidated at 100 %). The ratios are shown as sent and as a percentage.
 */
import { DataTable } from '../components.tsx';

export interface AccountRisk {
  margin: { wallet: string; assetsUsdt: string; liabilitiesUsdt: string; riskRatio: string }[];
  futures: {
    wallet: string;
    marginCoin: string;
    accountEquity: string;
    unrealizedPL: string;
    crossedRiskRate: string;
  }[];
}

/** "0.08014502" → "8.01 %", marked as a warning from 80 % and as danger from 100 %. */
function Ratio({ ratio }: { ratio: string }) {
  const value = Number(ratio);
  const level = value >= 1 ? 'danger' : value >= 0.8 ? 'warning' : '';
  return (
    <span class={level} title={ratio} data-ratio={ratio}>
      {(value * 100).toFixed(2)} %
    </span>
  );
}

export function RiskTables({ risk }: { risk: AccountRisk | undefined }) {
  if (!risk)
    return <p class="muted">Not served by this server (GET /admin/v1/accounts/{'{uid}'} has no risk).</p>;
  if (risk.margin.length === 0 && risk.futures.length === 0)
    return (
      <p class="muted" id="risk">
        No margin or futures wallet.
      </p>
    );
  return (
    <div id="risk">
      {risk.margin.length > 0 && (
        <DataTable
          id="risk-margin"
          rows={risk.margin}
          rowKey={(row) => row.wallet}
          columns={[
            ['Margin wallet', (row) => row.wallet],
            ['Assets (USDT)', (row) => row.assetsUsdt, true],
            ['Liabilities (USDT)', (row) => row.liabilitiesUsdt, true],
            ['Risk ratio', (row) => <Ratio ratio={row.riskRatio} />, true],
          ]}
        />
      )}
      {risk.futures.length > 0 && (
        <DataTable
          id="risk-futures"
          rows={risk.futures}
          rowKey={(row) => `${row.wallet}|${row.marginCoin}`}
          columns={[
            ['Futures wallet', (row) => `${row.wallet} ${row.marginCoin}`],
            ['Equity', (row) => row.accountEquity, true],
            ['Unrealised PnL', (row) => row.unrealizedPL, true],
            ['Crossed risk rate', (row) => <Ratio ratio={row.crossedRiskRate} />, true],
          ]}
        />
      )}
    </div>
  );
}
