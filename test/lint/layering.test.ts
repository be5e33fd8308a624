/**
 * The layering rule fails a back-running import: each fixture under fixtures/src/ is linted with the
 * repository's own eslint.config.js as if it sat at the same path under src/ (fixtures/src/main/db/x.ts
 * as src/main/db/x.ts), and its first line says what lint must answer: `// lint: passes` or
 * `// lint: fails <rule>` (`<!-- lint: … -->` in a .svelte file). Type-aware rules are off here: the fixtures are not in the TypeScript project,
 * and the boundaries are decided by import paths alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('fixtures', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

const cases = filesUnder(fixtures).map((file) => {
  const text = readFileSync(file, 'utf8');
  const expected = /^(?:\/\/|<!--) lint: (passes|fails (\S+))/.exec(text);
  if (expected === null) throw new Error(`${file}: the first line must be "// lint: passes" or "// lint: fails <rule>" (in .svelte: <!-- lint: … -->)`);
  return { as: relative(fixtures, file).split('\\').join('/'), text, failsBy: expected[2] };
});

const eslint = new ESLint({ cwd: repo, overrideConfig: tseslint.configs.disableTypeChecked });

async function lint(text: string, as: string): Promise<ESLint.LintResult['messages']> {
  const [result] = await eslint.lintText(text, { filePath: join(repo, as) });
  return result?.messages ?? [];
}

describe('the layering rule (eslint.config.js, eslint/layering.js)', () => {
  it('has fixtures that must fail and fixtures that must pass', () => {
    const kinds = cases.map((fixture) => fixture.as);
    expect(kinds).toEqual(expect.arrayContaining(['src/main/db/imports-sync.ts', 'src/main/sync/imports-app.ts', 'src/renderer/lib/imports-main.ts']));
    expect(cases.some((fixture) => fixture.failsBy === undefined)).toBe(true);
  });

  for (const fixture of cases) {
    it(`${fixture.as} ${fixture.failsBy === undefined ? 'passes' : `fails by ${fixture.failsBy}`}`, async () => {
      const messages = await lint(fixture.text, fixture.as);
      if (fixture.failsBy === undefined) {
        expect(messages).toEqual([]);
      } else {
        expect(messages.map((message) => ({ rule: message.ruleId, severity: message.severity }))).toEqual([{ rule: fixture.failsBy, severity: 2 }]);
      }
    }, 60_000);
  }

  it('names both folders and what the importer may use instead', async () => {
    const [message] = await lint("import type { Plan } from '../sync/sync-types.js';\nexport type Fixture = Plan;\n", 'src/main/db/back-running.ts');
    expect(message?.message).toBe("main/db may not import main/sync ('../sync/sync-types.js'): it may import shared, platform, main/model, main/disk, main/log.");
  });
});
