/** The workflow import rule of eslint.config.js, shown to fail on what it exists to stop. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');
const workflowFile = path.join(root, 'src/modules/device-orders/workflows.ts');

async function ruleMessages(code: string, filePath = workflowFile): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test("a workflow takes its activities' types from its contract, never from activities.ts, views or repo", async () => {
  assert.deepEqual(
    await ruleMessages(
      "import type { DeviceOrderActivities } from './contract.ts';\nexport type A = DeviceOrderActivities;\n",
    ),
    [],
  );
  for (const source of ['./activities.ts', './views.ts', './repo/orders.ts']) {
    const typeImport = await ruleMessages(`import type { X } from '${source}';\nexport type A = X;\n`);
    assert.equal(typeImport.length, 1, source);
    assert.match(typeImport[0]!, /types included/);
  }
  const valueImport = await ruleMessages(
    "import { createDeviceOrderActivities } from './activities.ts';\nexport const f = createDeviceOrderActivities;\n",
  );
  assert.equal(valueImport.length, 1);
});

test('a contract imports no view, repo row or activity type', async () => {
  const contract = path.join(root, 'src/modules/locker-deliveries/contract.ts');
  assert.deepEqual(
    await ruleMessages("import type { LockerAction } from './domain.ts';\nexport type A = LockerAction;\n", contract),
    [],
  );
  for (const source of ['./views.ts', './repo/deliveries.ts', './activities.ts'])
    assert.equal((await ruleMessages(`import type { X } from '${source}';\nexport type A = X;\n`, contract)).length, 1);
});

test('a workflow imports values only from @temporalio/workflow, its contract and its domain', async () => {
  const allowed =
    "import { sleep } from '@temporalio/workflow';\nimport { statusQuery } from './contract.ts';\nimport { isTerminal } from './domain.ts';\nexport const x = [sleep, statusQuery, isTerminal];\n";
  assert.deepEqual(await ruleMessages(allowed), []);
  for (const source of ['node:crypto', './repo.ts', '../../platform/db/orm.ts', '../orders/index.ts']) {
    assert.ok((await ruleMessages(`import * as m from '${source}';\nexport const x = m;\n`)).length > 0, source);
  }
});

test('the platform may not import a module', async () => {
  const messages = await ruleMessages(
    "import { CATALOG } from '../modules/index.ts';\nexport const c = CATALOG;\n",
    path.join(root, 'src/platform/module.ts'),
  );
  assert.equal(messages.length, 1);
});
