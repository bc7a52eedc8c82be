// npm run doctor's line for text's engine: the gate's own parser reads the engine, the model
// endpoint's prices and its key from wrangler.jsonc's vars, the shell's overrides and its secrets.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../assistant/doctor';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pepa-doctor-engine-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A gate's shell, with the model engine's key exported; the provider is not reached. */
const SHELL = {
  VITE_SITE_URL: 'https://pepa-court.example.org',
  VITE_TURNSTILE_SITE_KEY: '0x4AAAAAAAPepaCourtSiteKey',
  GATE_URL: 'https://pepa-court.example.org',
  MODEL_API_KEY: 'sk-pepa-court',
  VAPI_API_URL: 'http://provider.test',
};

async function engineRow(shell: Record<string, string | undefined>) {
  const rows = await runDoctor({
    env: { ...SHELL, ...shell },
    dist: join(work, 'no-build'),
    fetch: async () => new Response(null, { status: 401 }),
  });
  return rows.find((row) => row.check === 'Text engine');
}

describe("npm run doctor for text's engine", () => {
  it('passes the shipped model engine with its key, saying its prices and what a reply costs', async () => {
    expect(await engineRow({})).toMatchObject({
      status: 'ok',
      gate: true,
      detail:
        'the model at https://api.openai.com/v1, USD 0.15 / 0.075 / 0.6 per million tokens (prompt / cached / completion): a reply of 1500 prompt and 100 completion tokens costs about USD 0.000285; MODEL_API_KEY set here (put it on the Worker too)',
    });
  });

  it('fails a missing key, a price of nothing and an unknown engine, as the gate would refuse text', async () => {
    expect(await engineRow({ MODEL_API_KEY: undefined })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^MODEL_API_KEY is not set: .*the gate refuses text/),
      fix: expect.stringContaining('npx wrangler secret put MODEL_API_KEY'),
    });
    expect(await engineRow({ GATE_MODEL_OUTPUT_USD_PER_MTOK: '0' })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^GATE_MODEL_OUTPUT_USD_PER_MTOK must be above 0/),
    });
    expect(await engineRow({ GATE_MODEL_API_URL: 'http://model.example/v1' })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^GATE_MODEL_API_URL must be the endpoint's https:\/\//),
    });
    expect(await engineRow({ GATE_TEXT_ENGINE: 'gpt' })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^GATE_TEXT_ENGINE must be one of model, provider-chat/),
    });
  });

  it("passes the provider's chat with no model key, saying what it costs more", async () => {
    expect(
      await engineRow({ GATE_TEXT_ENGINE: 'provider-chat', MODEL_API_KEY: undefined }),
    ).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^the provider's chat: each reply costs its per-message fee/),
    });
  });
});
