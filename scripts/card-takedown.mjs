// @ts-check
// `npm run card:takedown -- <card address>`: takes a quote card down (assistant/card-takedown.ts).
// Reads GATE_ADMIN_TOKEN (the owner's token, never a VITE_ variable) from the environment.
import { runnerImport } from 'vite';

/** @type {{ module: typeof import('../assistant/card-takedown.ts') }} */
const { module: takedown } = await runnerImport('./assistant/card-takedown.ts', {
  configFile: false,
  logLevel: 'silent',
});
try {
  const done = await takedown.takeDown({
    address: process.argv[2],
    token: process.env.GATE_ADMIN_TOKEN,
  });
  console.log(done);
} catch (error) {
  console.error(`card:takedown: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
