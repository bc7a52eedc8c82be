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
    // generated/gate/ is the gate's client (openapi-ts.gate.config.ts), written after this one.
    // Nothing runs on the output: it is build output, byte-identical on every run.
    postProcess: [],
  },
  plugins: [
    // Configured by whoever uses it (the page in src/api, the gate, the scripts), so importing
    // the generated functions never pulls in one side's configuration.
    '@hey-api/client-fetch',
    {
      name: '@hey-api/typescript',
      definitions: (name) => (SHADOWED_GLOBALS.has(name) ? `Vapi${name}` : name),
    },
    '@hey-api/sdk',
    '@tanstack/react-query',
  ],
});
