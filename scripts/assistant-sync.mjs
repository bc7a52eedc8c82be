// @ts-check
// Syncs Pepa's definition (assistant/pepa.ts) to the provider. Runs the TypeScript modules
// through Vite's module runner, so the generated SDK is used as is.
//
//   npm run assistant:sync [-- --dry-run] [-- --rotate-webhook-secret]
//
// With GATE_URL (the site's public origin) and GATE_WEBHOOK_SECRET set, Pepa's server messages go
// to the court gate (<GATE_URL>/api/provider-events), authenticated by the webhook credential
// "pepa-court-gate". The provider never returns a credential's token, so after changing
// GATE_WEBHOOK_SECRET run with --rotate-webhook-secret to replace it.
import { parseArgs } from 'node:util';
import { runnerImport } from 'vite';

let values;
try {
  ({ values } = parseArgs({
    options: { 'dry-run': { type: 'boolean' }, 'rotate-webhook-secret': { type: 'boolean' } },
  }));
} catch (error) {
  console.error(`assistant:sync: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
/** @type {import('vite').InlineConfig} */
const options = { configFile: false, logLevel: 'silent' };
/** @type {{ module: typeof import('../assistant/sync.ts') }} */
const { module: sync } = await runnerImport('./assistant/sync.ts', options);
/** @type {{ module: typeof import('../assistant/pepa.ts') }} */
const { module: pepa } = await runnerImport('./assistant/pepa.ts', options);
try {
  await sync.syncAssistant({
    privateKey: process.env.VAPI_PRIVATE_KEY,
    baseUrl: sync.providerUrl(process.env),
    assistantId: process.env.VITE_VAPI_ASSISTANT_ID || process.env.VAPI_ASSISTANT_ID || undefined,
    dryRun: Boolean(values['dry-run']),
    assistant: pepa.pepaAssistant(process.env),
    gate: sync.gateTargetFrom(process.env, { rotate: Boolean(values['rotate-webhook-secret']) }),
  });
} catch (error) {
  console.error(error instanceof sync.SyncError ? error.message : String(error));
  process.exit(1);
}
