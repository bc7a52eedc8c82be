import { parseSiteConfig } from './site-config';

/** The validated configuration of this build. Throws a readable `ConfigError` when invalid. */
export const siteConfig = parseSiteConfig(import.meta.env);
