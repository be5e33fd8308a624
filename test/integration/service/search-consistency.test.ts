/**
 * Property test: for random criteria and sorts over a random account (fixed seed, so failures replay),
 * paging (`/asset-searches` with random page sizes) and scrolling (`/asset-scroll-searches`) return
 * exactly the sequence one plain query returns, and that set is what an independent in-test evaluator
 * of the criterion says it should be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { assetSeeder } from '../../support/seed-assets.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import type { FileType, LifecycleState } from '../../../src/shared/api/resources.js';

/** mulberry32: a small deterministic PRNG. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20_260_101);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
const chance = (p: number): boolean => rand() < p;

interface Model {
  id: string;
  state: LifecycleState;
  filename: string | null;
  fileType: FileType;
  stagedBy: string | null;
  modified: string;
  keywords: string[];
  folders: string[];
  caption: string | null;
}

const STATES: LifecycleState[] = ['STAGED', 'PENDING_APPROVAL', 'LIVE', 'LIVE', 'LIVE', 'BINNED'];
const TYPES: FileType[] = ['IMAGE', 'VIDEO', 'DOCUMENT', 'OTHER'];
const WORDS = ['logo', 'Logo', 'banner', 'photo', 'report', 'icon'];
const KEYWORDS = ['red', 'green', 'blue', 'Brand'];
const CAPTIONS = ['1', '2.5', '10', '42', '100', 'alpha', 'Beta'];
const fixed = (fieldName: string) => ({ type: 'FIXED', fieldName });

describe('paging and scrolling agree with a plain query (property test)', () => {
  let service: TestService;
  let models: Model[];
  let foldersId: string;
  let captionId: string;
  const children = new Map<string, string[]>();
  let folderIds: string[];

  beforeAll(async () => {
    service = await startTestService();
    const { ctx } = service.running;
    const accountId = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN)?.id ?? '';
    foldersId = ctx.fields.byRole(accountId, 'FOLDERS')?.id ?? '';
    const keywordsId = ctx.fields.byRole(accountId, 'KEYWORDS')?.id ?? '';
    captionId = (await service.api('POST', '/fields', { name: 'Caption', hasFixedOptions: false, multiValue: false })).body.result.id;
    const paths = [['A'], ['A', 'A1'], ['A', 'A2'], ['A', 'A1', 'A1x'], ['B'], ['B', 'B1'], ['C']];
    folderIds = ctx.db.transaction(() => paths.map((path) => ctx.fieldOptions.ensurePath(accountId, foldersId, path)))();
    paths.forEach((path, index) => {
      const parent = paths.findIndex((other) => other.join('/') === path.slice(0, -1).join('/'));
      if (parent >= 0) children.set(folderIds[parent] ?? '', [...(children.get(folderIds[parent] ?? '') ?? []), folderIds[index] ?? '']);
    });
    models = Array.from({ length: 300 }, (_, index) => ({
      id: `p-${String(index).padStart(3, '0')}`,
      state: pick(STATES),
      filename: chance(0.1) ? null : `${pick(WORDS)}-${index % 7}.${pick(['png', 'pdf'])}`,
      fileType: pick(TYPES),
      stagedBy: chance(0.2) ? null : pick(['u1', 'u2']),
      // Few distinct dates, so sort ties are common and the id tie-breaker matters.
      modified: new Date(Date.UTC(2026, 0, 1 + Math.floor(rand() * 20))).toISOString(),
      keywords: KEYWORDS.filter(() => chance(0.3)),
      folders: folderIds.filter(() => chance(0.2)),
      caption: chance(0.3) ? null : pick(CAPTIONS),
    }));
    const seeder = assetSeeder(ctx.db);
    ctx.db.transaction(() => {
      for (const model of models) {
        seeder.insert({
          id: model.id,
          accountId,
          state: model.state,
          filename: model.filename,
          fileType: model.fileType,
          stagedBy: model.stagedBy,
          dateLastModified: model.modified,
          values: { [keywordsId]: model.keywords, [foldersId]: model.folders, ...(model.caption === null ? {} : { [captionId]: [model.caption] }) },
        });
      }
    })();
  });
  afterAll(async () => {
    await service.dispose();
  });

  const descendants = (id: string): string[] => [id, ...(children.get(id) ?? []).flatMap(descendants)];

  /** A random leaf, with the same predicate evaluated in JavaScript. */
  function leaf(): { criterion: object; test: (model: Model) => boolean; state: boolean } {
    const kind = Math.floor(rand() * 9);
    switch (kind) {
      case 0: {
        const types = TYPES.filter(() => chance(0.5));
        return { criterion: { type: 'FIELD_IN', field: fixed('FILE_TYPE'), values: types }, test: (m) => m.filename !== null && types.includes(m.fileType), state: false };
      }
      case 1: {
        const state = pick(STATES);
        return { criterion: { type: 'FIELD_EQUALS', field: fixed('LIFECYCLE_STATE'), value: state }, test: (m) => m.state === state, state: true };
      }
      case 2: {
        const staged = chance(0.5);
        return { criterion: { type: 'FIELD_EQUALS', field: fixed('STAGED'), value: staged }, test: (m) => (m.state === 'STAGED') === staged, state: true };
      }
      case 3: {
        const word = pick(KEYWORDS);
        const op = pick(['FIELD_EQUALS', 'FIELD_EXISTS', 'FIELD_IS_EMPTY'] as const);
        const test = op === 'FIELD_EQUALS' ? (m: Model) => m.keywords.includes(word) : op === 'FIELD_EXISTS' ? (m: Model) => m.keywords.length > 0 : (m: Model) => m.keywords.length === 0;
        return { criterion: { type: op, field: fixed('KEYWORDS'), value: word }, test, state: false };
      }
      case 4: {
        const folder = pick(folderIds);
        const deep = chance(0.5);
        const matching = deep ? descendants(folder) : [folder];
        return { criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: foldersId }, value: folder, includeSubfolders: deep }, test: (m) => m.folders.some((id) => matching.includes(id)), state: false };
      }
      case 5: {
        const word = pick(WORDS);
        return { criterion: { type: 'FIELD_MATCHES', field: fixed('FILENAME'), value: `${word}*` }, test: (m) => m.filename?.toLowerCase().startsWith(word.toLowerCase()) ?? false, state: false };
      }
      case 6: {
        const [low, high] = [1 + Math.floor(rand() * 10), 10 + Math.floor(rand() * 10)].map((day) => new Date(Date.UTC(2026, 0, day)).toISOString());
        return { criterion: { type: 'FIELD_MATCHES', field: fixed('DATE_LAST_MODIFIED'), value: `[${low} TO ${high}}` }, test: (m) => m.modified >= (low ?? '') && m.modified < (high ?? ''), state: false };
      }
      case 7: {
        const [low, high] = [pick([0, 2, 5]), pick([10, 50, 1000])];
        const number = /^[0-9.]+$/;
        return { criterion: { type: 'FIELD_MATCHES', field: { type: 'FIELD', fieldId: captionId }, value: `[${low} TO ${high}]` }, test: (m) => m.caption !== null && number.test(m.caption) && Number(m.caption) >= low && Number(m.caption) <= high, state: false };
      }
      default:
        return { criterion: { type: 'FIELD_IS_EMPTY', field: fixed('STAGED_BY') }, test: (m) => m.stagedBy === null, state: false };
    }
  }

  function criterion(depth: number): { criterion: object; test: (model: Model) => boolean; state: boolean } {
    if (depth >= 3 || chance(0.4)) return leaf();
    const type = pick(['AND', 'OR', 'NOT'] as const);
    if (type === 'NOT') {
      const inner = criterion(depth + 1);
      return { criterion: { type, criterion: inner.criterion }, test: (m) => !inner.test(m), state: inner.state };
    }
    const parts = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => criterion(depth + 1));
    const test = type === 'AND' ? (m: Model) => parts.every((part) => part.test(m)) : (m: Model) => parts.some((part) => part.test(m));
    return { criterion: { type, criteria: parts.map((part) => part.criterion) }, test, state: parts.some((part) => part.state) };
  }

  function sorts(): object[] {
    const fields = [fixed('DATE_LAST_MODIFIED'), fixed('FILENAME'), fixed('KEYWORDS'), fixed('FILE_TYPE'), fixed('STAGED_BY'), fixed('STAGED'), { type: 'FIELD', fieldId: foldersId }, { type: 'FIELD', fieldId: captionId }];
    return Array.from({ length: Math.floor(rand() * 3) }, () => ({ field: pick(fields), order: pick(['ASC', 'DESC']) }));
  }

  const ids = (answer: any): string[] => answer.body.results.map((item: any) => item.result.id);

  it.each(Array.from({ length: 30 }, (_, index) => index))('case %i', async () => {
    const generated = criterion(0);
    const body = { criterion: generated.criterion, sorts: sorts() };
    const plain = await service.api('POST', '/asset-searches', { from: 0, pageSize: 1000, ...body });
    expect(plain.status, plain.text).toBe(200);
    const expected = ids(plain);
    const oracle = models.filter((m) => (generated.state || m.state === 'LIVE') && generated.test(m)).map((m) => m.id);
    expect([...expected].sort(), JSON.stringify(body)).toEqual(oracle);
    expect(plain.body.totalResults).toBe(expected.length);

    const pageSize = 1 + Math.floor(rand() * 40);
    const paged: string[] = [];
    for (let from = 0; from < expected.length; from += pageSize) {
      const page = await service.api('POST', '/asset-searches', { from, pageSize, ...body });
      expect(page.body.totalResults).toBe(expected.length);
      paged.push(...ids(page));
    }
    expect(paged, JSON.stringify(body)).toEqual(expected);

    const scrolled: string[] = [];
    let page = await service.api('POST', '/asset-scroll-searches', { pageSize, ...body });
    while (page.body.results.length > 0) {
      scrolled.push(...ids(page));
      page = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: page.body.scrollId });
    }
    expect(scrolled, JSON.stringify(body)).toEqual(expected);
  });
});
