// `npm run demo`: fills the configured, empty database with a demo school and prints how to sign in (run.ts).
// The demo loads the services of every area it writes through; the compile cache keeps their stripped and compiled
// modules between runs (as bin/lyceum.js does for the CLI), which halves a later run's time.
import module from 'node:module';

module.enableCompileCache?.();
await import('./run.ts');
