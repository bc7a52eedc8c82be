import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const createCallObject = vi.hoisted(() => vi.fn());
vi.mock('@daily-co/daily-js', () => ({ default: { createCallObject } }));

afterEach(() => {
  createCallObject.mockReset();
});

describe('createDailyCallFactory', () => {
  it('creates the call object with avoidEval on top of the given config', async () => {
    const call = { on: vi.fn(), off: vi.fn(), join: vi.fn(async () => undefined) };
    createCallObject.mockReturnValue(call);
    const { createDailyCallFactory } = await import('./daily-factory');
    const daily = await createDailyCallFactory()({
      audioSource: true,
      videoSource: false,
      dailyConfig: { micAudioMode: 'speech' },
    });
    expect(createCallObject).toHaveBeenCalledWith({
      audioSource: true,
      videoSource: false,
      dailyConfig: { micAudioMode: 'speech', avoidEval: true },
    });
    const handler = vi.fn();
    daily.on('left-meeting', handler);
    daily.off('left-meeting', handler);
    expect(call.on).toHaveBeenCalledWith('left-meeting', handler);
    expect(call.off).toHaveBeenCalledWith('left-meeting', handler);
    await daily.join({ url: 'https://x.daily.co/r', subscribeToTracksAutomatically: false });
    expect(call.join).toHaveBeenCalledWith({
      url: 'https://x.daily.co/r',
      subscribeToTracksAutomatically: false,
    });
  });
});

describe('the Daily seam', () => {
  it('is the only module that loads @daily-co/daily-js, and only with import()', () => {
    const root = join(process.cwd(), 'src');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
          files.push(path);
      }
    };
    walk(root);
    const loaders = files.filter((file) =>
      /from\s+['"]@daily-co\/daily-js['"]|import\(\s*['"]@daily-co\/daily-js['"]\s*\)/.test(
        readFileSync(file, 'utf8').replace(/import\s+type[^;]+;/g, ''),
      ),
    );
    expect(loaders.map((file) => relative(root, file))).toEqual(['lib/call/daily-factory.ts']);
    const source = readFileSync(join(root, 'lib/call/daily-factory.ts'), 'utf8');
    expect(source.replace(/import\s+type[^;]+;/g, '')).not.toMatch(/^import .*daily-js/m);
  });
});
