#!/usr/bin/env node
// The `lyceum` command: Node 24 runs the TypeScript source directly (type stripping), so there is nothing to build.
import { processIo, run } from '../src/cli/main.ts';

process.exitCode = await run(process.argv.slice(2), processIo());
