// @ts-check
// `npm run card:takedown -- <card address>` takes a quote card down, and every card of its words;
// `npm run card:takedown -- --words "…"` takes words down before any card of them (on GATE_URL).
// Both say what they blocked (assistant/card-takedown.ts). Reads GATE_ADMIN_TOKEN (the owner's
// token, never a VITE_ variable) from the environment.
import { runnerImport } from 'vite';

/** @type {{ module: typeof import('../assistant/card-takedown.ts') }} */
const { module: takedown } = await runnerImport('./assistant/card-takedown.ts', {
  configFile: false,
  logLevel: 'silent',
});
try {
  const { address, words } = takedown.takedownArgs(process.argv.slice(2));
  const done = await takedown.takeDown({
    address,
    words,
    gateUrl: process.env.GATE_URL,
    token: process.env.GATE_ADMIN_TOKEN,
  });
  console.log(done);
} catch (error) {
  console.error(`card:takedown: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
