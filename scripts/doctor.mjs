// @ts-check
// `npm run doctor [-- --call] [-- --dist <dir>]`: is the live build ready? Prints one table
// (assistant/doctor.ts) and exits 1 when a check fails. Without VITE_VAPI_PUBLIC_KEY it checks
// the court gate's configuration (assistant/doctor-gate.ts); with it, it flags the page's public
// key as unprotected. `--call` creates one web call, which the provider bills.
import { parseArgs } from 'node:util';
import { runnerImport } from 'vite';

let values;
try {
  ({ values } = parseArgs({
    options: { call: { type: 'boolean' }, dist: { type: 'string' } },
  }));
} catch (error) {
  console.error(`doctor: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
/** @type {{ module: typeof import('../assistant/doctor.ts') }} */
const { module: doctor } = await runnerImport('./assistant/doctor.ts', {
  configFile: false,
  logLevel: 'silent',
});
try {
  const rows = await doctor.runDoctor({
    env: process.env,
    call: Boolean(values.call),
    dist: values.dist,
  });
  console.log(doctor.formatDoctorTable(rows));
  process.exit(rows.some((row) => row.status === 'fail') ? 1 : 0);
} catch (error) {
  console.error(`doctor: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
