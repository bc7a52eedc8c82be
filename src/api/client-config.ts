import type { CreateClientConfig } from '../../generated/client.gen';
import { siteConfig } from '../config/site';

/**
 * Called once by the generated client when it is created: points it at the provider (or the local
 * mock in the demo) and authenticates every secured operation with the public key.
 */
export const createClientConfig: CreateClientConfig = (config) => ({
  ...config,
  baseUrl: siteConfig.voice.apiUrl,
  auth: () => siteConfig.voice.publicKey,
});
