#!/usr/bin/env node
// The `lyceum` command: Node 24 runs the TypeScript source directly (type stripping), so there is nothing to build.
// The compile cache keeps the stripped and compiled modules between runs (it halves the start-up time).
import module from 'node:module';

const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(
    `lyceum needs Node.js 24 or later (it runs its TypeScript source directly); this is ${process.version}.`,
  );
  process.exit(2);
}
module.enableCompileCache?.();
const { processIo, run } = await import('../src/cli/main.ts');
process.exitCode = await run(process.argv.slice(2), processIo());
