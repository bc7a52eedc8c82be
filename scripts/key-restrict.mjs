// Restricts the public key to the site's origin and Pepa (assistant/restrict-key.ts), through
// the generated SDK run by Vite's module runner. Only a static-only build has a public key in the
// page; a build behind the court gate has none to restrict.
import { runnerImport } from 'vite';

const options = { configFile: false, logLevel: 'silent' };
const { module: restrict } = await runnerImport('./assistant/restrict-key.ts', options);
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
  console.error(error?.name === 'SyncError' ? error.message : String(error));
  process.exit(1);
}
