// Checks every JSON answer the Pester suite got from WmcoHost.psm1 (one file each, written by the suite's
// Invoke-WmcoJson when WMCO_HOST_ANSWERS names a folder) against the schemas the operator parses them
// with (packages/core/dist, built first). Prints TAP: one line per answer, then `# pass N` / `# fail N`.
// Usage: node scripts/check-host-answers.js <answers-dir>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  changeResultSchema,
  errorResultSchema,
  observeResultSchema,
  rebootResultSchema,
} from '../packages/core/dist/host/protocol/index.js';

const [dir] = process.argv.slice(2);
const schemas = {
  observe: observeResultSchema,
  apply: changeResultSchema,
  deconfigure: changeResultSchema,
  reboot: rebootResultSchema,
};
let pass = 0;
let fail = 0;
let number = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const answer = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  // DriveInfo('C') has no free space to report off Windows: the one field the suite cannot produce.
  if (process.platform !== 'win32' && answer.state?.freeDiskBytes === null) answer.state.freeDiskBytes = 0;
  const schema = answer.ok === false ? errorResultSchema : schemas[answer.op];
  const checked = schema?.safeParse(answer);
  number++;
  if (checked?.success) {
    pass++;
    console.log(`ok ${number} - ${answer.op} answer ${file} passes the operator's schema`);
  } else {
    fail++;
    console.log(`not ok ${number} - ${answer.op} answer ${file}`);
    console.log(`  # ${checked ? checked.error.message.replaceAll('\n', ' ') : 'no schema for this op'}`);
  }
}
console.log(`1..${number}`);
console.log(`# pass ${pass}`);
console.log(`# fail ${fail}`);
process.exitCode = fail > 0 || number === 0 ? 1 : 0;
