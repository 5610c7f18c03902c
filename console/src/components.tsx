/** Small building blocks: a table of rows, an operator action form, an answer box. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { errorText, operator } from './api.ts';

export type Column<Row> = [label: string, cell: (row: Row) => ComponentChildren, numeric?: boolean];

export interface DataTableProps<Row> {
  id: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  empty?: string;
}

export function DataTable<Row>({ id, columns, rows, rowKey, empty = 'None' }: DataTableProps<Row>) {
  if (rows && rows.length === 0)
    return (
      <p class="muted" id={id}>
        {empty}
      </p>
    );
  return (
    <div class="overflow-auto">
      <table class="striped compact" id={id}>
        <thead>
          <tr>
            {columns.map(([label, , numeric]) => (
              <th key={label} class={numeric ? 'num' : undefined}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {(rows ?? []).map((row) => (
            <tr key={rowKey(row)}>
              {columns.map(([label, cell, numeric]) => (
                <td key={label} class={numeric ? 'num' : undefined}>
                  {cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface Field {
  name: string;
  label?: string;
  /** text (default), select, list (comma separated → array), json (an object merged into the body), password */
  type?: 'text' | 'select' | 'list' | 'json' | 'password' | 'number';
  options?: string[];
  required?: boolean;
  placeholder?: string;
  /** In the path (`:name`) rather than the body. */
  inPath?: boolean;
  value?: string;
}

export interface Action {
  id: string;
  title: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  fields: Field[];
  submitLabel?: string;
  confirm?: string;
  /** Turns the form's values into the body (default: every non-empty body field). */
  body?: (values: Record<string, string>) => unknown;
}

/** What the server answered: its data as JSON, or its code and message. */
export function Answer({ answer }: { answer: { ok: boolean; text: string } | null }) {
  if (!answer) return null;
  return (
    <pre class={answer.ok ? 'answer ok' : 'answer error'} role="status">
      {answer.text}
    </pre>
  );
}

function FieldInput({ field }: { field: Field }) {
  // A default, not a controlled value: a view that re-renders (every poll) must not put it
  // back over what the operator is typing.
  const common = {
    name: field.name,
    required: field.required,
    placeholder: field.placeholder,
    defaultValue: field.value,
  };
  if (field.type === 'password') return <input type="password" autocomplete="off" {...common} />;
  return <input type="text" inputMode={field.type === 'number' ? 'decimal' : undefined} {...common} />;
}

function bodyOf(action: Action, values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of action.fields) {
    const value = values[field.name] ?? '';
    if (field.inPath || value === '') continue;
    if (field.type === 'list')
      body[field.name] = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    else if (field.type === 'json') Object.assign(body, JSON.parse(value) as Record<string, unknown>);
    else body[field.name] = value;
  }
  return body;
}

export function ActionForm({ action, onDone }: { action: Action; onDone?: (data: unknown) => void }) {
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (action.confirm && !confirm(action.confirm)) return;
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const values = Object.fromEntries(
      action.fields.map((field) => [field.name, String(form.get(field.name) ?? '').trim()]),
    );
    // Path parameters filled in; a query parameter left empty is dropped.
    const path = action.path
      .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))
      .replace(/[?&]\w+=(?=&|$)/g, '')
      .replace(/^([^?]*)&/, '$1?');
    setBusy(true);
    try {
      const body =
        action.method === 'GET' || action.method === 'DELETE'
          ? undefined
          : (action.body ?? ((v) => bodyOf(action, v)))(values);
      const data = await operator<unknown>(action.method, path, body);
      setAnswer({ ok: true, text: JSON.stringify(data, null, 2) });
      onDone?.(data);
    } catch (error) {
      setAnswer({ ok: false, text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} id={`action-${action.id}`} class="action" aria-label={action.title}>
      <fieldset class="grid-fields">
        <legend>
          <strong>{action.title}</strong>{' '}
          <code class="muted">{`${action.method} /admin/v1${action.path}`}</code>
        </legend>
        {action.fields.map((field) => (
          <label key={field.name}>
            {field.label ?? field.name}
            {field.type === 'select' ? (
              <select name={field.name} required={field.required}>
                {(field.options ?? []).map((option) => (
                  <option key={option} selected={option === field.value}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <FieldInput field={field} />
            )}
          </label>
        ))}
      </fieldset>
      <button type="submit" aria-busy={busy} class={action.method === 'DELETE' ? 'secondary' : undefined}>
        {action.submitLabel ?? action.title}
      </button>
      <Answer answer={answer} />
    </form>
  );
}
