/** `npm run docs:errors`: writes docs/errors.md from the error-code registry and the operations' failures. */
import fs from 'node:fs';
import path from 'node:path';
import { errorsDocument } from '../api/errorReference.ts';

const file = path.join(import.meta.dirname, '..', 'docs', 'errors.md');
fs.writeFileSync(file, errorsDocument());
process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
