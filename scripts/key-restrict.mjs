// @ts-check
// Restricts the public key to the site's origin and Pepa (assistant/restrict-key.ts), through
// the generated SDK run by Vite's module runner. Only a static-only build has a public key in the
// page; a build behind the court gate has none to restrict.
import { runnerImport } from 'vite';

/** @type {import('vite').InlineConfig} */
const options = { configFile: false, logLevel: 'silent' };
/** @type {{ module: typeof import('../assistant/restrict-key.ts') }} */
const { module: restrict } = await runnerImport('./assistant/restrict-key.ts', options);
/** @type {{ module: typeof import('../assistant/sync.ts') }} */
const { module: sync } = await runnerImport('./assistant/sync.ts', options);
try {
  await restrict.restrictKey({
    privateKey: process.env.VAPI_PRIVATE_KEY,
    publicKey: process.env.VITE_VAPI_PUBLIC_KEY,
    siteUrl: process.env.VITE_SITE_URL,
    assistantId: process.env.VITE_VAPI_ASSISTANT_ID,
    baseUrl: sync.providerUrl(process.env),
    dryRun: process.argv.includes('--dry-run'),
  });
} catch (error) {
  // By name: each runnerImport loads its own copy of sync.ts, so `instanceof sync.SyncError`
  // would not match the class restrict-key.ts throws.
  console.error(
    error instanceof Error && error.name === 'SyncError' ? error.message : String(error),
  );
  process.exit(1);
}
