// Syncs Pepa's definition (assistant/pepa.ts) to the provider. Runs the TypeScript modules
// through Vite's module runner, so the generated SDK is used as is.
import { runnerImport } from 'vite';

// The SDK's default client reads the site's build configuration on import; the sync never uses
// that client (it builds its own with the private key), so let it load in demo mode.
process.env.VITE_PEPA_DEMO = 'true';
const dryRun = process.argv.includes('--dry-run');
const { module: sync } = await runnerImport('./assistant/sync.ts', {
  configFile: false,
  logLevel: 'silent',
});
const { module: pepa } = await runnerImport('./assistant/pepa.ts', {
  configFile: false,
  logLevel: 'silent',
});
try {
  await sync.syncAssistant({
    privateKey: process.env.VAPI_PRIVATE_KEY,
    baseUrl: sync.providerUrl(process.env),
    assistantId: process.env.VITE_VAPI_ASSISTANT_ID || undefined,
    dryRun,
    assistant: pepa.pepaAssistant(process.env),
  });
} catch (error) {
  console.error(error instanceof sync.SyncError ? error.message : String(error));
  process.exit(1);
}
