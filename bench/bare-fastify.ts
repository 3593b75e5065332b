/** The floor of the stack: a bare Fastify process answering GET / with a small JSON (PORT), for the benches' ratios. */
import fastify from 'fastify';

const app = fastify();
app.get('/', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
