// Validation micro-benchmark, AJV side: node validate.mjs CORPUS_DIR SECONDS
// Compiles bench/corpus/schema.json once (AJV 8, draft 2020-12 keywords used by MCP
// forms, ajv-formats for email/uri/date/date-time, allErrors like mcp-elicit-core), then
// validates valid.json in a loop for SECONDS. Prints one JSON line:
// {"implementation", "validations_per_sec", "correct", "note"}.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const [dir, secondsArg] = process.argv.slice(2);
const seconds = Number(secondsArg ?? '3');
const load = (name) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
const schema = load('schema.json');
const valid = load('valid.json');
const invalid = load('invalid.json');

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const check = ajv.compile(schema);
const correct = check(valid) === true && check(invalid) === false;

const budgetNs = BigInt(Math.round(seconds * 1e9));
const start = process.hrtime.bigint();
let count = 0;
let sink = 0;
for (;;) {
  for (let i = 0; i < 256; i++) sink += check(valid) ? 1 : 0;
  count += 256;
  if (process.hrtime.bigint() - start >= budgetNs) break;
}
const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
const require = createRequire(import.meta.url);
const version = (pkg) => require(`${pkg}/package.json`).version;
console.log(
  JSON.stringify({
    implementation: `AJV ${version('ajv')} + ajv-formats ${version('ajv-formats')} (Node ${process.versions.node})`,
    validations_per_sec: count / elapsed,
    correct: correct && sink === count,
    note: 'compiled to JavaScript once; allErrors',
  }),
);
