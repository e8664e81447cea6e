/**
 * `npm run lint:contract`: the contract lint. Builds the OpenAPI document and every module document (the AsyncAPI
 * webhook catalog) in-process, as the API serves them, for a fixed base URL; writes them to a temporary folder and
 * runs the Spectral CLI on them with the project's ruleset (.spectral.yaml). Prints each finding with its JSON path
 * and the count per rule; exits 1 on any error or warning. `npm test` runs it with the other static checks.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CATALOG, MODULES } from '../src/modules/index.ts';
import { buildOpenApi } from '../api/openapi.ts';
import { loadConfig } from '../src/platform/config.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SPECTRAL = path.join(ROOT, 'node_modules/@stoplight/spectral-cli/dist/index.js');
const RULESET = path.join(ROOT, '.spectral.yaml');
/** Any URL does: the documents' content does not depend on it beyond their servers and links. */
const BASE_URL = 'https://tms.example';

/** One result of Spectral's JSON format. */
interface Finding {
  code: string;
  message: string;
  path: (string | number)[];
  severity: 0 | 1 | 2 | 3;
  source?: string;
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/** The documents the API serves under /api, with the default configuration, by the file name they are linted as. */
export function contractDocuments(baseUrl = BASE_URL): Record<string, unknown> {
  const { apiContactEmail } = loadConfig({});
  const docs: Record<string, unknown> = {
    'openapi.json': buildOpenApi(CATALOG, baseUrl, { contactEmail: apiContactEmail }),
  };
  for (const doc of MODULES.flatMap((m) => m.documents ?? []))
    docs[path.basename(doc.path)] = doc.build(baseUrl, apiContactEmail);
  return docs;
}

/** Lints the documents; the findings, or throws when Spectral itself failed (a broken ruleset). */
export function lintContract(docs = contractDocuments()): (Finding & { file: string })[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tms-contract-'));
  try {
    const files = Object.entries(docs).map(([name, doc]) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, JSON.stringify(doc, null, 2));
      return file;
    });
    const output = path.join(dir, 'findings.json');
    const run = spawnSync(
      process.execPath,
      [SPECTRAL, 'lint', ...files, '--ruleset', RULESET, '--format', 'json', '--output', output, '--quiet'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    // Spectral exits 1 when it found errors and 2 when it could not run.
    if (!fs.existsSync(output) || (run.status !== 0 && run.status !== 1))
      throw new Error(`Spectral did not run (exit ${run.status}):\n${run.stdout}${run.stderr}`);
    const findings = JSON.parse(fs.readFileSync(output, 'utf8')) as Finding[];
    return findings.map((f) => ({ ...f, file: path.basename(f.source ?? '') }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A finding's path as JSONPath: `$.paths['/v1/orders'].get.responses['422']`. */
const jsonPath = (p: readonly (string | number)[]) =>
  '$' +
  p
    .map((s) =>
      typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `['${s.replaceAll("'", "\\'")}']`,
    )
    .join('');

if (import.meta.main) {
  const docs = contractDocuments();
  const findings = lintContract(docs);
  const counts = new Map<string, number>();
  for (const f of findings) {
    process.stdout.write(`${f.file} ${SEVERITY[f.severity]} ${f.code} ${jsonPath(f.path)}\n  ${f.message}\n`);
    const key = `${f.file} ${SEVERITY[f.severity]} ${f.code}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const failing = findings.filter((f) => f.severity <= 1).length;
  if (counts.size > 0) {
    process.stdout.write('\nFindings per rule:\n');
    for (const [key, n] of [...counts].sort()) process.stdout.write(`  ${String(n).padStart(4)}  ${key}\n`);
  }
  process.stdout.write(
    `${failing === 0 ? 'ok' : 'FAILED'}: the contract lint (.spectral.yaml) found ${failing} error(s) and warning(s)` +
      ` in ${Object.keys(docs).join(', ')}.\n`,
  );
  process.exit(failing === 0 ? 0 : 1);
}
