/**
 * Fixed demo credentials from the environment (BOURSE_DEMO_API_KEY, _SECRET_KEY, _PASSPHRASE)
 * or a file (BOURSE_DEMO_CREDENTIALS): read through loadConfig as the server does, every
 * mistake refused with a message naming the variable.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { makeTempDir, removeDir } from './support/server.ts';

const GOOD = {
  BOURSE_DEMO_API_KEY: 'bg_fixedfixedfixed',
  BOURSE_DEMO_SECRET_KEY: 'fixed-secret-0123456789abcdef',
  BOURSE_DEMO_PASSPHRASE: 'Passphrase123',
};

test('load config when the three demo variables are set gives the fixed credentials', () => {
  assert.deepEqual(loadConfig(GOOD).demoCredentials, {
    apiKey: GOOD.BOURSE_DEMO_API_KEY,
    secretKey: GOOD.BOURSE_DEMO_SECRET_KEY,
    passphrase: GOOD.BOURSE_DEMO_PASSPHRASE,
  });
  assert.equal(loadConfig({}).demoCredentials, undefined, 'none set: random credentials');
});

test('load config when a demo variable is missing or malformed names it', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ ...GOOD, BOURSE_DEMO_SECRET_KEY: '' }, /^BOURSE_DEMO_SECRET_KEY missing: set BOURSE_DEMO_API_KEY/],
    [{ BOURSE_DEMO_PASSPHRASE: 'Passphrase123' }, /^BOURSE_DEMO_API_KEY and BOURSE_DEMO_SECRET_KEY missing/],
    [{ ...GOOD, BOURSE_DEMO_API_KEY: 'bg key!' }, /^BOURSE_DEMO_API_KEY must be 8 to 64 letters/],
    [{ ...GOOD, BOURSE_DEMO_SECRET_KEY: 'short' }, /^BOURSE_DEMO_SECRET_KEY must be 16 to 128 printable/],
    [
      { ...GOOD, BOURSE_DEMO_PASSPHRASE: 'pass word 123' },
      /^BOURSE_DEMO_PASSPHRASE must be 8 to 32 letters and digits/,
    ],
    [{ ...GOOD, BOURSE_SEED_DEMO: 'false' }, /^BOURSE_DEMO_API_KEY is set but BOURSE_SEED_DEMO is false/],
    [
      { ...GOOD, BOURSE_DEMO_CREDENTIALS: '/x.json' },
      /^set BOURSE_DEMO_CREDENTIALS or BOURSE_DEMO_API_KEY, .* not both/,
    ],
  ];
  for (const [env, message] of cases) assert.throws(() => loadConfig(env), { message }, JSON.stringify(env));
});

test('load config when BOURSE_DEMO_CREDENTIALS names a credentials file reads it, and refuses a bad one', (t) => {
  const dir = makeTempDir('bourse-demo-');
  t.after(() => removeDir(dir));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const copy = file(
    'credentials.json',
    JSON.stringify({
      baseUrl: 'http://x',
      uid: '1',
      apiKey: 'bg_fromfile01',
      secretKey: 'a'.repeat(64),
      passphrase: 'FromFile123',
    }),
  );
  assert.deepEqual(loadConfig({ BOURSE_DEMO_CREDENTIALS: copy }).demoCredentials, {
    apiKey: 'bg_fromfile01',
    secretKey: 'a'.repeat(64),
    passphrase: 'FromFile123',
  });
  const cases: [string, RegExp][] = [
    [join(dir, 'absent.json'), /^BOURSE_DEMO_CREDENTIALS: cannot read .*absent\.json as JSON/],
    [file('broken.json', '{'), /^BOURSE_DEMO_CREDENTIALS: cannot read .*broken\.json as JSON/],
    [file('list.json', '[]'), /^BOURSE_DEMO_CREDENTIALS: .*list\.json must hold a JSON object/],
    [
      file('partial.json', '{"apiKey":"bg_fromfile01","passphrase":"FromFile123"}'),
      /secretKey in .*partial\.json is missing/,
    ],
    [
      file('proto.json', '{"__proto__":{"apiKey":"bg_fromfile01"},"secretKey":"x","passphrase":"y"}'),
      /apiKey in .*proto\.json is missing/,
    ],
    [
      file('number.json', `{"apiKey":12345678,"secretKey":"${'a'.repeat(64)}","passphrase":"FromFile123"}`),
      /apiKey in .* must be/,
    ],
  ];
  for (const [path, message] of cases) {
    assert.throws(() => loadConfig({ BOURSE_DEMO_CREDENTIALS: path }), { message }, path);
  }
});
