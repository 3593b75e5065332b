import { commandConfig } from './command-config.ts';
import { SchemaAheadError } from './db/connect.ts';
import { heapBounded, MEMORY_FLAGS } from './memory-budget.ts';
import { startServer } from './server.ts';

const config = commandConfig();

const server = await startServer(config).catch((error: unknown) => {
  if (error instanceof SchemaAheadError) {
    process.stderr.write(`lyceum: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
});
if (!heapBounded())
  server.app.log.warn(
    { node_flags: MEMORY_FLAGS.join(' ') },
    'Node was started without the memory bounds `npm start` passes: under load this instance may hold far more memory than it uses',
  );

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  if (config.STOP_DRAIN_SECONDS > 0) {
    server.app.log.info({ signal, seconds: config.STOP_DRAIN_SECONDS }, 'stopping: draining (readiness off)');
    await server.drain(config.STOP_DRAIN_SECONDS * 1000);
  }
  server.app.log.info({ signal }, 'stopping: finishing in-flight requests');
  const force = setTimeout(() => {
    server.app.log.error('in-flight requests did not finish within 10s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  await server.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
