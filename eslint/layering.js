/**
 * The layering rule: which folders of src/ each folder may import, as one table (VS Code's
 * `code-layering` rule is the model). A relative import is resolved to the folder it lands in and
 * checked against the importing file's row; an import that runs back up, sideways or into a folder the
 * table does not know fails lint. Packages (`node:*`, `electron`, …) are no-restricted-imports' job.
 * Must never: read the imported file (the decision is the path alone, so it holds for fixtures too).
 */
import path from 'node:path';

// The client's ladder, lowest rung first: each group is everything at or below a rung.
const base = ['shared', 'platform', 'main/model']; // every folder of the client may use these
const lowEdges = [...base, 'main/disk', 'main/log'];
const edges = [...lowEdges, 'main/api', 'main/auth', 'main/local', 'main/db'];
const belowEngine = [...edges, 'main/store', 'main/remote', 'main/sync'];
const belowHeadless = [...belowEngine, 'main/engine', 'main/app', 'main/control'];

/**
 * Folder (under src/; `main/engine` is engine.ts or engine/) → every folder its files may import
 * besides their own, lower rungs included. A folder missing here fails lint until it gets its row.
 */
export const LAYERS = {
  shared: [],
  platform: ['shared'],
  renderer: ['shared'],
  service: ['shared', 'platform'],
  'main/model': ['shared'],
  'main/disk': base,
  'main/log': base,
  'main/api': lowEdges,
  'main/auth': [...lowEdges, 'main/api'],
  'main/local': lowEdges,
  'main/db': lowEdges,
  'main/store': [...lowEdges, 'main/db'],
  'main/remote': [...lowEdges, 'main/api', 'main/local', 'main/db', 'main/store'],
  'main/sync': [...edges, 'main/store', 'main/remote'],
  'main/engine': belowEngine,
  'main/app': [...belowEngine, 'main/engine'],
  'main/control': [...belowEngine, 'main/engine', 'main/app'],
  // The headless composition root starts the embedded service.
  'main/headless': [...belowHeadless, 'service'],
  'main/cli': [...belowHeadless, 'main/headless'],
  'main/desktop': [...belowHeadless, 'main/headless'],
  // The `asset-sync` process: both command tables, and the errors it prints.
  'cli.ts': ['shared', 'platform', 'service', 'main/cli', 'main/api', 'main/model'],
};

/** Folders entered only through their index.ts from outside. */
export const ENTRY_ONLY = ['main/api'];

/**
 * A test may reach across the layers of its own area (the client's tests build real edges and start
 * the service); the walls around the service, the renderer and src/shared hold for tests too.
 */
const TEST_AREAS = ['main/', 'cli.ts'];

/** Folders a test may import beyond its folder's row: a service command's test runs it through the `asset-sync` process. */
const TEST_EXTRA = { service: ['cli.ts'] };

/** The table row a src/-relative path belongs to, or undefined when no row holds it. */
function folderOf(srcPath) {
  const bare = srcPath.replace(/(\.test)?\.(ts|js|svelte)$/, '');
  return Object.keys(LAYERS)
    .filter((folder) => bare === folder.replace(/\.ts$/, '') || bare.startsWith(`${folder}/`))
    .sort((a, b) => b.length - a.length)[0];
}

/** The path inside src/ (after the last `src/` segment), or undefined outside src/. */
function srcPathOf(file) {
  const parts = file.split(path.sep).join('/').split('/');
  const at = parts.lastIndexOf('src');
  return at < 0 ? undefined : parts.slice(at + 1).join('/');
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder of src/ imports only the folders its row of the layering table lists.' },
    schema: [],
    messages: {
      backRunning: "{{from}} may not import {{to}} ('{{source}}'): it may import {{allowed}}.",
      unknownFolder: '{{from}} is not in the layering table (eslint/layering.js): add its row.',
      throughIndex: "Import {{to}} through its index.ts from outside it ('{{source}}').",
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const fromPath = srcPathOf(file);
    if (fromPath === undefined) return {};
    const from = folderOf(fromPath);
    const isTest = /\.test\.ts$/.test(file);

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      if (from === undefined) {
        context.report({ node, messageId: 'unknownFolder', data: { from: fromPath } });
        return;
      }
      const testReach = isTest && TEST_AREAS.some((area) => from.startsWith(area));
      const targetPath = srcPathOf(path.resolve(path.dirname(file), source));
      const to = targetPath === undefined ? undefined : folderOf(targetPath);
      if (to === from || (targetPath === undefined && isTest)) return;
      if (to === undefined || (!testReach && !LAYERS[from].includes(to) && !(isTest && TEST_EXTRA[from]?.includes(to)))) {
        const allowed = LAYERS[from].length === 0 ? 'nothing else in src/' : LAYERS[from].join(', ');
        context.report({ node, messageId: 'backRunning', data: { from, to: to ?? targetPath ?? 'a file outside src/', source, allowed } });
        return;
      }
      if (!testReach && ENTRY_ONLY.includes(to) && !/\/index\.(js|ts)$/.test(targetPath)) {
        context.report({ node, messageId: 'throughIndex', data: { to, source } });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
    };
  },
};
