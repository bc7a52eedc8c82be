// @ts-check
// `npm run audit:prod`: the runtime dependencies must have no high or critical advisory.
// Exit codes: 0 clean; 1 high or critical advisories; 3 the registry could not be asked (an audit
// that did not run is not a passing audit, so this is never 0).
import { spawnSync } from 'node:child_process';

const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
  encoding: 'utf8',
  env: { ...process.env, npm_config_loglevel: 'error' },
});

/**
 * What `npm audit --json` prints: the advisories, or an error when the registry was not reached.
 * @typedef {{
 *   message?: string,
 *   error?: { summary?: string },
 *   metadata?: { vulnerabilities: Record<string, number> },
 *   vulnerabilities?: Record<string, { severity: string, range: string }>,
 * }} AuditReport
 */

/** @type {AuditReport | undefined} */
let report;
try {
  report = JSON.parse(result.stdout);
} catch {
  report = undefined;
}

if (!report || report.error || !report.metadata) {
  const reason =
    report?.message ||
    report?.error?.summary ||
    result.stderr
      .trim()
      .split('\n')
      .filter((line) => !/Unknown user config/.test(line))
      .pop() ||
    'no answer';
  console.error(`audit: NOT RUN, the npm registry could not be asked for advisories (${reason})`);
  process.exit(3);
}

const counts = report.metadata.vulnerabilities;
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
const summary = Object.entries(counts)
  .filter(([key]) => key !== 'total')
  .map(([key, value]) => `${key} ${value}`)
  .join(', ');
console.log(`audit (runtime dependencies): ${summary}`);
if (serious > 0) {
  for (const [name, vuln] of Object.entries(report.vulnerabilities ?? {})) {
    if (vuln.severity === 'high' || vuln.severity === 'critical') {
      console.error(`  ${vuln.severity}: ${name} ${vuln.range}`);
    }
  }
  console.error(`audit: ${serious} high or critical advisories in runtime dependencies`);
  process.exit(1);
}
