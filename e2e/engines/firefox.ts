// Gecko (Debian's firefox-esr) over WebDriver BiDi through puppeteer-core, headless.
import puppeteer from 'puppeteer-core';
import { COMMAND_TIMEOUT_MS, type EngineOptions, type EngineSession } from './engine';
import { PuppeteerSession } from './puppeteer';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Firefox's preferences for a call without a person: a synthetic microphone and speaker, no
 * permission prompt, and audio that may play without a gesture it cannot see.
 */
export function firefoxPrefs({ microphone }: EngineOptions): Record<string, unknown> {
  return {
    'media.navigator.streams.fake': microphone,
    'media.navigator.permission.disabled': true,
    // The mock audio backend plays the call's sound, and offers capture devices of its own: a
    // machine with no microphone gets no audio backend at all (nothing here has a sound card).
    'media.cubeb.force_mock_context': microphone,
    'media.autoplay.default': 0,
    'media.autoplay.blocking_policy': 0,
    // Pages prefer reduced motion, as in the Chromium suite (playwright.config.ts).
    'ui.prefersReducedMotion': 1,
    // No update checks, telemetry or remote settings: the page's own hosts only.
    'app.update.enabled': false,
    'browser.shell.checkDefaultBrowser': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'toolkit.telemetry.enabled': false,
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'browser.safebrowsing.update.enabled': false,
  };
}

export async function openFirefoxSession(options: EngineOptions): Promise<EngineSession> {
  const prefs = firefoxPrefs(options);
  // No page is kept for a return: every back or forward loads the page again.
  if (options.backForwardCache === false) prefs['browser.sessionhistory.max_total_viewers'] = 0;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocolTimeout: COMMAND_TIMEOUT_MS,
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: prefs,
  });
  return new PuppeteerSession('firefox', browser);
}
