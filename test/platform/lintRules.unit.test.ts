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

test('a workflow may import its activities as types only', async () => {
  assert.deepEqual(
    await ruleMessages(
      "import type { DeviceOrderActivities } from './activities.ts';\nexport type A = DeviceOrderActivities;\n",
    ),
    [],
  );
  const valueImport = await ruleMessages(
    "import { createDeviceOrderActivities } from './activities.ts';\nexport const f = createDeviceOrderActivities;\n",
  );
  assert.equal(valueImport.length, 1);
  assert.match(valueImport[0]!, /import type/);
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
