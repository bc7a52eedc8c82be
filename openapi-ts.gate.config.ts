import { defineConfig } from '@hey-api/openapi-ts';

/**
 * The court gate's own API (openapi/gate.json): the page's client for it, generated beside the
 * provider's into generated/gate/. Its calls are same-origin paths (`/api/…`), so the client has
 * no base URL of its own; scripts and tests that reach a gate elsewhere create a client with one.
 */
export default defineConfig({
  input: './openapi/gate.json',
  output: { path: './generated/gate', postProcess: [] },
  plugins: [
    '@hey-api/client-fetch',
    '@hey-api/typescript',
    '@hey-api/sdk',
    '@tanstack/react-query',
    'valibot',
  ],
});
