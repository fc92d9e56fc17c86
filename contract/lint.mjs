// `redocly lint` fails on errors only; the contract must also have zero warnings.
import { execFileSync } from 'node:child_process';

const documents = process.argv.slice(2);
let failed = false;
for (const document of documents) {
  let out;
  try {
    out = execFileSync('redocly', ['lint', '--config', 'redocly.yaml', '--format', 'json', document], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout; // errors make redocly exit non-zero; the JSON report is still on stdout
  }
  const report = JSON.parse(out);
  const { errors, warnings, ignored } = report.totals;
  console.log(`${document}: ${errors} errors, ${warnings} warnings (${ignored} deliberate exceptions)`);
  for (const p of report.problems) console.log(`  ${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
  if (errors + warnings > 0) failed = true;
}
process.exit(failed ? 1 : 0);
