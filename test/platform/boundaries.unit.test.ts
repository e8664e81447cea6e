/**
 * The module rules of docs/architecture.md, checked over the source tree: a module reaches another only through
 * its index.ts or contract.ts, the platform imports no module, SQL lives in repo files, and the registries list
 * every module's workflows.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MODULES } from '../../src/modules/index.ts';
import * as bundleEntry from '../../workflows/index.ts';

const root = path.resolve(import.meta.dirname, '../..');
const modulesDir = path.join(root, 'src/modules');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The files a source file imports by relative path (static, dynamic and re-exports), resolved. */
function relativeImports(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => path.resolve(path.dirname(file), s));
}

/** The module a path belongs to, or null for the registry files directly under src/modules and for anything else. */
const moduleOf = (file: string): string | null => {
  const rel = path.relative(modulesDir, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0]! : null;
};

/** Every import from one module into another that is not through the other's index.ts or contract.ts. */
function crossModuleViolations(
  files: string[],
  read: (file: string) => string = (f) => fs.readFileSync(f, 'utf8'),
): string[] {
  return files.flatMap((file) => {
    const own = moduleOf(file);
    if (own === null) return [];
    return relativeImports(file, read(file))
      .filter((target) => {
        const other = moduleOf(target);
        return (
          other !== null &&
          other !== own &&
          !['index.ts', 'contract.ts'].includes(path.relative(path.join(modulesDir, other), target))
        );
      })
      .map((target) => `${path.relative(root, file)} -> ${path.relative(root, target)}`);
  });
}

test('a module reaches another module only through its index.ts or contract.ts', () => {
  assert.deepEqual(crossModuleViolations(tsFiles(modulesDir)), []);
});

test("the boundary check fails on an import of another module's inner file", () => {
  const file = path.join(modulesDir, 'tracking/repo/ingest.ts');
  const text =
    "import { recordOrderStatusChange } from '../../orders/repo.ts';\nimport { Order } from '../../orders/index.ts';\n";
  assert.deepEqual(
    crossModuleViolations([file], () => text),
    ['src/modules/tracking/repo/ingest.ts -> src/modules/orders/repo.ts'],
  );
});

/** The registries: they list the modules, so a module that imported one would import every other module. */
const REGISTRIES = ['src/modules/index.ts', 'workflows/index.ts', 'activities/index.ts'].map((f) => path.join(root, f));

function registryImports(files: string[], read: (file: string) => string = (f) => fs.readFileSync(f, 'utf8')) {
  return files.flatMap((file) =>
    moduleOf(file) === null
      ? []
      : relativeImports(file, read(file))
          .filter((t) => REGISTRIES.includes(t))
          .map((t) => `${path.relative(root, file)} -> ${path.relative(root, t)}`),
  );
}

test('no module imports a registry file', () => {
  assert.deepEqual(registryImports(tsFiles(modulesDir)), []);
});

test('the registry check fails on a module that imports the module list or the bundle entry', () => {
  const file = path.join(modulesDir, 'webhooks/routing.ts');
  const text = "import { EVENTS } from '../index.ts';\nexport * from '../../../workflows/index.ts';\n";
  assert.deepEqual(
    registryImports([file], () => text),
    [
      'src/modules/webhooks/routing.ts -> src/modules/index.ts',
      'src/modules/webhooks/routing.ts -> workflows/index.ts',
    ],
  );
});

test('the platform imports no module and no surface', () => {
  const bad = tsFiles(path.join(root, 'src/platform')).flatMap((file) =>
    relativeImports(file)
      .filter((t) => t.startsWith(modulesDir + path.sep) || t.startsWith(path.join(root, 'api') + path.sep))
      .map((t) => `${path.relative(root, file)} -> ${path.relative(root, t)}`),
  );
  assert.deepEqual(bad, []);
});

// An operation may still open a transaction and flush its unit of work; the queries and the writes are in repo files.
test('SQL and ORM queries live only in repo files', () => {
  const query =
    /\.execute\s*[<(]|executeBound\s*[<(]|\bem\.(find|findOne|findOneOrFail|findAndCount|count|create|persist|nativeUpdate|nativeDelete|getKysely)\b/;
  const bad = tsFiles(modulesDir)
    .filter((f) => !/[/\\]repo(\.ts$|[/\\])/.test(f))
    .filter((f) => query.test(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(root, f));
  assert.deepEqual(bad, []);
});

test("a module's operations are defined in its operations.ts or operations/ folder only", () => {
  const bad = tsFiles(modulesDir)
    .filter((f) => !/[/\\]operations(\.ts$|[/\\])/.test(f))
    .filter((f) => /\bdefineOperation\s*\(/.test(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(root, f));
  assert.deepEqual(bad, []);
});

test('the workflow bundle entry exports exactly the workflows the modules declare', () => {
  const declared = MODULES.flatMap((m) => m.workflows ?? []).sort();
  assert.deepEqual(Object.keys(bundleEntry).sort(), declared);
});

test('the outbox has one writer', () => {
  const writers = [...tsFiles(path.join(root, 'src')), ...tsFiles(path.join(root, 'api'))]
    .filter((f) => /insert\s+into\s+outbox_event/i.test(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(root, f));
  assert.deepEqual(writers, ['src/platform/db/outbox.ts']);
});
