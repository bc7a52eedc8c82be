import { describe, expect, it } from 'vitest';
import { costPerReply, textCosts } from './surge-text-costs.mjs';

const noChats = { chats: new Map() };

describe("a surge's text cost per reply", () => {
  it("prices the model engine's replies at the model's prices, and the same replies at the provider's chat", () => {
    const costs = textCosts(
      {
        model: {
          stats: { completions: 2, promptTokens: 3000, cachedTokens: 1024, completionTokens: 200 },
        },
        chat: noChats,
      },
      'model',
    );
    expect(costs.replies).toBe(2);
    expect(costs.modelUsd).toBeCloseTo((1976 * 0.15 + 1024 * 0.075 + 200 * 0.6) / 1e6, 12);
    expect(costs.providerChatUsd).toBeCloseTo(2 * 0.005 + (3000 * 0.15 + 200 * 0.6) / 1e6, 12);
    expect(costs.modelUsd * 10).toBeLessThan(costs.providerChatUsd);
  });

  it("takes the provider's chat engine's replies at what the provider charged, and their model part", () => {
    const chats = new Map([
      [
        'a',
        {
          cost: 0.0053,
          costs: [
            { type: 'model', cost: 0.0003 },
            { type: 'chat', cost: 0.005 },
          ],
        },
      ],
      [
        'b',
        {
          cost: 0.0052,
          costs: [
            { type: 'model', cost: 0.0002 },
            { type: 'chat', cost: 0.005 },
          ],
        },
      ],
    ]);
    const stats = { completions: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 };
    const costs = textCosts({ model: { stats }, chat: { chats } }, 'provider-chat');
    expect(costs).toEqual({
      replies: 2,
      modelUsd: expect.closeTo(0.0005, 12),
      providerChatUsd: expect.closeTo(0.0105, 12),
    });
  });

  it('says each per reply, and a dash for none', () => {
    const line = costPerReply({ replies: 4, modelUsd: 0.001, providerChatUsd: 0.021 }, 0.0012, 4);
    expect(line).toMatch(
      /^\$0\.00030 \/ \$0\.00025 \/ \$0\.00525 \(model 0\.15 \/ 0\.075 \/ 0\.6 USD/,
    );
    expect(costPerReply({ replies: 0, modelUsd: 0, providerChatUsd: 0 }, 0, 0)).toMatch(
      /^- \/ - \/ - /,
    );
  });
});
