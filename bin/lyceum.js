#!/usr/bin/env node
// The `lyceum` command: Node 24 runs the TypeScript source directly (type stripping), so there is nothing to build.
// The compile cache keeps the stripped and compiled modules between runs (it halves the start-up time).
import module from 'node:module';

module.enableCompileCache?.();
const { processIo, run } = await import('../src/cli/main.ts');
process.exitCode = await run(process.argv.slice(2), processIo());
