import { type Config, ConfigError, loadConfig } from './config.ts';

/**
 * The settings of a command run from the shell (the server, migrate, rotate-keys): a bad one is told in one line on
 * standard error, and the command exits with 2.
 */
export function commandConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`lyceum: ${error.message}\n`);
    process.exit(2);
  }
}
