// `npm run doctor [-- --call] [-- --dist <dir>]`: is the live build ready? Prints one table
// (assistant/doctor.ts) and exits 1 when a check fails. `--call` creates one web call, which the
// provider bills.
import { parseArgs } from 'node:util';
import { runnerImport } from 'vite';

const { values } = parseArgs({
  options: { call: { type: 'boolean' }, dist: { type: 'string' } },
});
// The doctor reads the environment as a live build would; the SDK's default client, which it
// never uses, reads the site configuration on import, so that one import loads in demo mode.
const env = { ...process.env };
process.env.VITE_PEPA_DEMO = 'true';
const { module: doctor } = await runnerImport('./assistant/doctor.ts', {
  configFile: false,
  logLevel: 'silent',
});
try {
  const rows = await doctor.runDoctor({ env, call: Boolean(values.call), dist: values.dist });
  console.log(doctor.formatDoctorTable(rows));
  process.exit(rows.some((row) => row.status === 'fail') ? 1 : 0);
} catch (error) {
  console.error(`doctor: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
