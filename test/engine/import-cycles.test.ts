/**
 * The engine's modules depend one way: no import cycle among the files of src/engine. Every
 * relative `from '…'` counts — value imports, `import type` and re-exports alike — because a
 * type-only cycle still makes a reader read both files to understand either.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const ENGINE = join(ROOT, 'src', 'engine');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** File → the engine files it imports from. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const found of readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)) {
      const target = join(dirname(file), found[1] ?? '');
      if (target.startsWith(ENGINE) && existsSync(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

test('the cycle finder when given a ring and a self-import reports both, and nothing for a chain', () => {
  const ring = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['d']],
    ['e', ['a']],
  ]);
  assert.deepEqual(cyclesOf(ring), [['a', 'b', 'c'], ['d']]);
  assert.deepEqual(
    cyclesOf(
      new Map([
        ['x', ['y']],
        ['y', ['z']],
        ['z', []],
      ]),
    ),
    [],
  );
});

test('src/engine when its imports are followed has no import cycle', () => {
  const files = sourceFiles(ENGINE);
  assert.ok(files.length > 50, 'the engine sources were found');
  const cycles = cyclesOf(importGraph(files)).map((cycle) => cycle.map((file) => relative(ROOT, file)));
  assert.deepEqual(cycles, []);
});
