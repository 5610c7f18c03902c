/**
 * The README and docs/ stand on their own: every relative link points at a file of the
 * repository, nothing points at material outside it, and the history they keep is dated
 * rather than told as the story of the work.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name));
  return [join(ROOT, 'README.md'), ...docs];
}

/** Lines of a page outside fenced code blocks, with their numbers. */
function proseLines(text: string): [number, string][] {
  let fenced = false;
  const lines: [number, string][] = [];
  text.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) lines.push([index + 1, line]);
  });
  return lines;
}

test('docs when they link to a file link to one in the repository', () => {
  const broken: string[] = [];
  for (const page of pages()) {
    for (const [number, line] of proseLines(readFileSync(page, 'utf8'))) {
      for (const match of line.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(resolve(dirname(page), target))) broken.push(`${page}:${number} ${target}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('docs when they cite a source cite nothing outside the repository', () => {
  // docs/endpoints.md is this repository's own page: cited as a path or a link target.
  const outside =
    /wire\.md|venue-mechanics|(?<![/([])endpoints\.md|api-spec|shared\/reference|\bthe spec\b|spec's/;
  const found: string[] = [];
  for (const page of pages()) {
    readFileSync(page, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (outside.test(line)) found.push(`${page}:${index + 1} ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});

test('docs when they keep history date it instead of narrating the work', () => {
  const story = /\bsessions? \d|\bhelpers?\b/i;
  const found: string[] = [];
  for (const page of pages()) {
    readFileSync(page, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (story.test(line)) found.push(`${page}:${index + 1} ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});
