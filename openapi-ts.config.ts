import { defineConfig } from '@hey-api/openapi-ts';

/**
 * Schema names that would shadow a global type inside the generated modules (`File` is used for
 * multipart bodies, `Error` by the client). Only these get a prefix, so every other type keeps the
 * provider's own name.
 */
const SHADOWED_GLOBALS = new Set([
  'Blob',
  'Error',
  'File',
  'FormData',
  'Headers',
  'Request',
  'Response',
]);

export default defineConfig({
  input: './openapi/vapi.json',
  output: {
    path: './generated',
    // Nothing runs on the output: it is build output, byte-identical on every run.
    postProcess: [],
  },
  plugins: [
    {
      name: '@hey-api/client-fetch',
      // The app's side of the client: base URL and bearer key from the site config.
      runtimeConfigPath: '../src/api/client-config',
    },
    {
      name: '@hey-api/typescript',
      definitions: (name) => (SHADOWED_GLOBALS.has(name) ? `Vapi${name}` : name),
    },
    '@hey-api/sdk',
    '@tanstack/react-query',
  ],
});
