import type Database from 'better-sqlite3';

/** An INSERT whose rows can go several per statement: `head` + `row`, `row`, … + `tail`. */
export interface InsertTemplate {
  head: string;
  row: string;
  tail: string;
}

export type StatementSpec = string | InsertTemplate;

/** The text of a statement spec writing one row. */
export function oneRowText(spec: StatementSpec): string;

export class StatementSet {
  constructor(db: Database.Database);
  add(specs: readonly StatementSpec[]): void;
  run(index: number, rows: readonly unknown[][]): void;
}
