/**
 * Pieces of an account's page: the order table's columns, the key form, the Freeze / Revoke
 * buttons of a key and the Settle / Reject buttons of a pending deposit or withdrawal (each
 * labelled with what it acts on, for a screen reader and the keyboard).
 */
import { ApiError, operator } from '../api.ts';
import { DataTable, type Action, type DataTableProps } from '../components.tsx';
import { time } from '../format.ts';
import type { KeyRow, OrderRow } from '../account-data.ts';

export function Unavailable({ what }: { what: string }) {
  return <p class="muted">Not served by this server ({what}).</p>;
}

/** A table of what one of the account's routes answered, or that the server does not serve it. */
export function ServedTable<Row>({
  unavailable,
  what,
  ...table
}: DataTableProps<Row> & { unavailable: boolean; what: string }) {
  return unavailable ? <Unavailable what={what} /> : <DataTable {...table} />;
}

export const ORDER_COLUMNS: [string, (row: OrderRow) => string, boolean?][] = [
  ['Order id', (row) => row.orderId],
  ['Category', (row) => row.category],
  ['Symbol', (row) => row.symbol],
  ['Side', (row) => row.side],
  ['Type', (row) => row.orderType],
  ['Price', (row) => row.price, true],
  ['Qty', (row) => row.qty, true],
  ['Filled', (row) => row.cumExecQty, true],
  ['Avg price', (row) => row.avgPrice, true],
  ['Status', (row) => row.status],
  ['Created', (row) => time(row.createdTime)],
];

export function keyActions(uid: string): Action[] {
  return [
    {
      id: 'key-create',
      title: 'Create API key',
      method: 'POST',
      path: `/accounts/${uid}/api-keys`,
      fields: [
        { name: 'label', placeholder: 'bot' },
        { name: 'permissions', type: 'list', placeholder: 'spot_trade, contract_trade, read (default: all)' },
        { name: 'ipList', type: 'list', placeholder: '127.0.0.1 (default: any)' },
        { name: 'passphrase', type: 'password', placeholder: 'random if empty' },
      ],
    },
  ];
}

export function KeyButtons({ row, onDone }: { row: KeyRow; onDone: () => void }) {
  const act = async (method: 'PATCH' | 'DELETE', body?: unknown) => {
    if (method === 'DELETE' && !confirm(`Revoke ${row.apiKey}? Bots using it stop at once.`)) return;
    try {
      await operator(method, `/api-keys/${row.apiKey}`, body);
    } catch (error) {
      alert(error instanceof ApiError ? `${error.code} ${error.msg}` : String(error));
    }
    onDone();
  };
  const frozen = row.status === 'frozen';
  return (
    <div class="buttons">
      <button
        type="button"
        class="outline small"
        aria-label={`${frozen ? 'Unfreeze' : 'Freeze'} ${row.apiKey}`}
        onClick={() => act('PATCH', { status: frozen ? 'normal' : 'frozen' })}
      >
        {frozen ? 'Unfreeze' : 'Freeze'}
      </button>
      <button
        type="button"
        class="outline secondary small"
        aria-label={`Revoke ${row.apiKey}`}
        onClick={() => act('DELETE')}
      >
        Revoke
      </button>
    </div>
  );
}

export function SettleButtons({ id, onDone }: { id: string; onDone: () => void }) {
  const settle = async (status: 'success' | 'fail') => {
    try {
      await operator('POST', `/funding/${id}/settle`, { status });
    } catch (error) {
      alert(error instanceof ApiError ? `${error.code} ${error.msg}` : String(error));
    }
    onDone();
  };
  return (
    <div class="buttons">
      <button
        type="button"
        class="outline small"
        aria-label={`Settle ${id}`}
        onClick={() => settle('success')}
      >
        Settle
      </button>
      <button
        type="button"
        class="outline secondary small"
        aria-label={`Reject ${id}`}
        onClick={() => settle('fail')}
      >
        Reject
      </button>
    </div>
  );
}
