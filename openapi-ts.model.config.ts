import { defineConfig } from '@hey-api/openapi-ts';

/**
 * The model engine's endpoint (openapi/model-chat.json: the part of an OpenAI-compatible
 * chat-completions API the gate uses): its client and the validators the gate reads each streamed
 * chunk with, generated into generated/model/. The endpoint's address is the owner's setting, so
 * the gate creates the client with its base URL and key.
 */
export default defineConfig({
  input: './openapi/model-chat.json',
  output: { path: './generated/model', postProcess: [] },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk', 'valibot'],
});
