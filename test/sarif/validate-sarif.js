// Validates kernel-tidy's SARIF output against the official OASIS SARIF 2.1.0
// schema (draft-04, hence ajv-draft-04) and checks what GitHub code scanning
// needs. A deliberately broken log must fail validation, so that a validator
// that accepts everything cannot pass this test.
// Usage: node validate-sarif.js KERNEL_TIDY_BINARY SOURCE_DIR
'use strict';
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Ajv = require('ajv-draft-04');
const addFormats = require('ajv-formats');

const [binary, sourceDir] = process.argv.slice(2);
const schemaPath = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')),
                             'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
// unicodeRegExp: false, because one pattern of the schema is not valid with
// the u flag (a stray ']' in the language pattern).
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));

function check(name, log, expectValid) {
  const valid = validate(log);
  if (valid !== expectValid) {
    console.error(`${name}: expected ${expectValid ? 'valid' : 'invalid'}`,
                  JSON.stringify(validate.errors, null, 1));
    process.exit(1);
  }
  console.log(`ok: ${name} is ${valid ? 'valid' : 'invalid'} as expected`);
}

// A run with a safe fix, an unsafe fix, a finding without a fix, a finding
// promoted to an error, and a file that does not parse.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-tidy-sarif-'));
const fixtures = path.join(sourceDir, 'test', 'fixtures');
const copies = {
  'src/safe.cpp': 'luisa-butterfly-reduction/max-straight-line.cpp',
  'src/unsafe.cpp': 'luisa-butterfly-reduction/sum-float-explicit-add-unsafe.cpp',
  'src/no fix.cpp': 'luisa-shared-atomic-counter/user-macro-no-fix.cpp',
};
fs.mkdirSync(path.join(dir, 'src'));
// The analysed text of a fixture: without its directive lines.
function fixtureInput(file) {
  const strip = spawnSync('python3', [path.join(sourceDir, 'scripts', 'fixture-input'), file],
                          { encoding: 'utf8' });
  assert.equal(strip.status, 0, `scripts/fixture-input ${file}\n${strip.stderr}`);
  return strip.stdout;
}
for (const [to, from] of Object.entries(copies))
  fs.writeFileSync(path.join(dir, to), fixtureInput(path.join(fixtures, from)));
// It includes LuisaCompute: folder mode skips C++ files that do not.
fs.writeFileSync(path.join(dir, 'src', 'broken.cpp'),
                 '#include <luisa/luisa-compute.h>\nint broken( {\n');
// --target cuda: the float max and the integer atomic get a profitability note.
const run = spawnSync(binary, ['check', '--format', 'sarif', '--sarif-root', dir,
                               '--warnings-as-errors', 'luisa-shared-atomic-counter',
                               '--target', 'cuda', path.join(dir, 'src')], { encoding: 'utf8' });
assert.equal(run.status, 2, `exit code (a file does not parse)\n${run.stderr}`);
const log = JSON.parse(run.stdout);
fs.rmSync(dir, { recursive: true });

check('kernel-tidy SARIF log', log, true);

// What GitHub code scanning requires or uses.
assert.equal(log.version, '2.1.0');
assert.ok(log.$schema.includes('sarif'));
assert.equal(log.runs.length, 1);
const r0 = log.runs[0];
const driver = r0.tool.driver;
assert.equal(driver.name, 'kernel-tidy');
assert.ok(driver.version && driver.informationUri);
assert.equal(r0.columnKind, 'unicodeCodePoints');
const ruleIds = driver.rules.map(r => r.id);
// The registry, rules/Rules.def, is the only list of rules.
const registry = fs.readFileSync(path.join(sourceDir, 'rules', 'Rules.def'), 'utf8');
const registered = [...registry.matchAll(/^KERNEL_TIDY_(?:CUTE_)?RULE\(\s*"([^"]+)"/gm)].map(m => m[1]);
assert.ok(registered.length > 0, 'no KERNEL_TIDY_RULE line in rules/Rules.def');
assert.deepEqual(ruleIds, registered);
let docLinks = 0;
for (const rule of driver.rules) {
  assert.ok(rule.shortDescription.text && rule.fullDescription.text, rule.id);
  const doc = fs.readFileSync(path.join(sourceDir, 'docs', 'rules', `${rule.id}.md`), 'utf8');
  assert.equal(rule.help.text, doc, `${rule.id}: help.text is the rule's doc page`);
  // help.markdown is the page with its relative links made absolute (a SARIF
  // viewer has no folder to resolve them against), pointing at the docs.
  const prose = s => s.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
  assert.equal(prose(rule.help.markdown).replace(/\]\([^)]*\)/g, ']()'),
               prose(doc).replace(/\]\([^)]*\)/g, ']()'), `${rule.id}: help.markdown changes only links`);
  for (const [, link] of prose(rule.help.markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
    assert.match(link, /^([a-z]+:|#)/, `${rule.id}: relative link '${link}' in help.markdown`);
    if (link.startsWith('file://')) {
      assert.ok(fs.existsSync(decodeURIComponent(new URL(link).pathname)), `${rule.id}: dead link ${link}`);
      docLinks++;
    }
  }
  assert.equal(rule.defaultConfiguration.level, 'warning');
}
assert.ok(docLinks > 0, 'no rule page links to the docs in help.markdown');
assert.equal(r0.results.length, 3, JSON.stringify(r0.results, null, 1));
const byUri = {};
for (const result of r0.results) {
  assert.equal(driver.rules[result.ruleIndex].id, result.ruleId);
  assert.ok(['warning', 'error'].includes(result.level));
  assert.ok(result.message.text.length > 0);
  assert.equal(result.locations.length, 1);
  const loc = result.locations[0].physicalLocation;
  assert.ok(!loc.artifactLocation.uri.startsWith('/'), 'uri relative to --sarif-root');
  assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1);
  assert.ok(loc.region.endLine >= loc.region.startLine);
  assert.match(result.partialFingerprints.primaryLocationLineHash, /^[0-9a-f]{16}:[0-9]+$/);
  byUri[loc.artifactLocation.uri] = result;
}
assert.deepEqual(Object.keys(byUri).sort(), ['src/no%20fix.cpp', 'src/safe.cpp', 'src/unsafe.cpp']);
assert.equal(byUri['src/no%20fix.cpp'].level, 'error', '--warnings-as-errors');
assert.equal(byUri['src/no%20fix.cpp'].fixes, undefined, 'no fix, no fixes[]');
const safe = byUri['src/safe.cpp'];
assert.equal(safe.level, 'warning');
const replacement = safe.fixes[0].artifactChanges[0].replacements[0];
assert.equal(safe.fixes[0].artifactChanges[0].artifactLocation.uri, 'src/safe.cpp');
assert.deepEqual(replacement.deletedRegion,
                 { startLine: 12, startColumn: 9, endLine: 16, endColumn: 50 });
assert.equal(replacement.insertedContent.text, 'm = warp_active_max(m);');
const unsafeFix = byUri['src/unsafe.cpp'].fixes[0];
assert.ok(unsafeFix.description.text.includes('unsafe'));
// The reason a fix is unsafe, in the description and as a property.
const roundingReason = 'warp_active_sum combines the floating-point values in another order, ' +
                       'so the result can differ by rounding';
assert.ok(unsafeFix.description.text.endsWith(roundingReason), unsafeFix.description.text);
assert.deepEqual(unsafeFix.properties, { applicability: 'unsafe', reason: roundingReason });
assert.deepEqual(safe.fixes[0].properties, { applicability: 'safe' });
// A note without a fix is a related location with a message, at the finding.
for (const uri of ['src/safe.cpp', 'src/no%20fix.cpp']) {
  const related = byUri[uri].relatedLocations;
  assert.equal(related.length, 1, uri);
  assert.match(related[0].message.text, /^on cuda this rewrite is (not expected to be faster|expected to be slower) \(/);
  assert.equal(related[0].physicalLocation.artifactLocation.uri, uri);
  assert.equal(related[0].physicalLocation.region.startLine,
               byUri[uri].locations[0].physicalLocation.region.startLine);
}
const invocation = r0.invocations[0];
assert.equal(invocation.executionSuccessful, false);
assert.equal(invocation.toolExecutionNotifications[0].locations[0].physicalLocation
                 .artifactLocation.uri, 'src/broken.cpp');
console.log('ok: GitHub code scanning fields');

// Deliberately broken logs must fail the schema.
const broken = JSON.parse(JSON.stringify(log));
broken.runs[0].results[0].level = 'severe';
check('log with an invalid result level', broken, false);
const noVersion = JSON.parse(JSON.stringify(log));
delete noVersion.version;
check('log without version', noVersion, false);
