import { readFileSync } from 'node:fs';

/** This build's version: the package's (the school runs from its source, with package.json beside it). */
export const LYCEUM_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
