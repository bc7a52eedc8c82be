// Opens the engine a test names: a session in which pages open one after another, or a page in a
// browser of its own.
import { openChromiumSession } from './chromium';
import type { EngineName, EngineOptions, EnginePage, EngineSession } from './engine';
import { openFirefoxSession } from './firefox';
import { openWebKitSession } from './webkit';

const OPENERS: Record<EngineName, (options: EngineOptions) => Promise<EngineSession>> = {
  chromium: openChromiumSession,
  firefox: openFirefoxSession,
  webkit: openWebKitSession,
};

export function openEngineSession(engine: EngineName, options: EngineOptions) {
  return OPENERS[engine](options);
}

/** A page in a browser of its own: closing the page closes the browser. */
export async function openEngine(
  engine: EngineName,
  baseUrl: string,
  options: EngineOptions,
): Promise<EnginePage> {
  const session = await openEngineSession(engine, options);
  try {
    const page = await session.newPage(baseUrl);
    return Object.assign(page, { close: () => session.close() });
  } catch (error) {
    await session.close();
    throw error;
  }
}
