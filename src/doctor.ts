import { ConfigError, loadConfig } from './config.ts';
import { examine } from './health/doctor.ts';

/** `npm run doctor`: what is right and what to fix in this configuration; exit 1 when something is to be fixed. */
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stdout.write(`✖ ${error.message}\n`);
  process.exit(1);
}
const findings = await examine(config, { now: () => new Date() });
const mark = { ok: '✔', note: '·', fix: '✖' } as const;
for (const f of findings) process.stdout.write(`${mark[f.level]} ${f.what}${f.todo ? `\n    fix: ${f.todo}` : ''}\n`);
const toFix = findings.filter((f) => f.level === 'fix').length;
process.stdout.write(toFix ? `${toFix} to fix\n` : 'nothing to fix\n');
process.exitCode = toFix ? 1 : 0;
