/**
 * How the conformance suite classifies a client method: it works (a real call with sensible
 * arguments whose result is checked), it is pending on work in progress on another branch, or
 * it is out of scope with the reason. docs/endpoints.md is generated from these verdicts
 * (scripts/endpoints-doc.ts), so every reason is written for a reader of that page.
 */

/** Branches whose endpoints are being built while this suite lists them. */
export type Branch = 'i20a' | 'i20b';

export type Verdict<C> =
  | { run: (context: C) => Promise<unknown> }
  | { pending: Branch; why: string; run?: (context: C) => Promise<unknown> }
  | { outOfScope: string };

/** One verdict for both account kinds, or one each. */
export type Entry<C> = Verdict<C> | { classic: Verdict<C>; unified: Verdict<C> };

export type AccountKind = 'classic' | 'unified';

export function verdictFor<C>(entry: Entry<C>, kind: AccountKind): Verdict<C> {
  return 'classic' in entry ? entry[kind] : entry;
}

export function works<C>(run: (context: C) => Promise<unknown>): Verdict<C> {
  return { run };
}

/** Not served yet: another branch is adding it. `run` is the case it will pass (run as a todo). */
export function pending<C>(branch: Branch, why: string, run?: (context: C) => Promise<unknown>): Verdict<C> {
  return run ? { pending: branch, why, run } : { pending: branch, why };
}

export function outOfScope<C>(reason: string): Verdict<C> {
  return { outOfScope: reason };
}

/** The status word of a verdict, as docs/endpoints.md prints it. */
export function statusOf<C>(verdict: Verdict<C>): string {
  if ('pending' in verdict) return `pending (${verdict.pending}): ${verdict.why}`;
  if ('outOfScope' in verdict) return `out of scope: ${verdict.outOfScope}`;
  return 'works';
}
