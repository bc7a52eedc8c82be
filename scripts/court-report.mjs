// @ts-check
// `npm run court:report [-- --days N]`: the court gate's daily totals (assistant/court-report.ts):
// calls, minutes, spend, ratings, how many starts waited in line, refusals and failures. Reads
// GATE_URL (the site's public origin) and GATE_ADMIN_TOKEN (the owner's token, never a VITE_
// variable) from the environment.
import { parseArgs } from 'node:util';
import { runnerImport } from 'vite';

/** @type {{ module: typeof import('../assistant/court-report.ts') }} */
const { module: report } = await runnerImport('./assistant/court-report.ts', {
  configFile: false,
  logLevel: 'silent',
});
try {
  const { values } = parseArgs({ options: { days: { type: 'string' } } });
  const days = report.parseDays(values.days);
  const totals = await report.fetchReport({
    gateUrl: process.env.GATE_URL,
    token: process.env.GATE_ADMIN_TOKEN,
    days,
  });
  console.log(report.formatReport(totals, days));
} catch (error) {
  console.error(`court:report: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
