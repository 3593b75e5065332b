import type { FastifyReply } from 'fastify';

/** 201 with what a create made, or 200 with what it found already there. */
export async function madeOrFound(reply: FastifyReply, work: Promise<{ created: boolean; item: unknown }>) {
  const { created, item } = await work;
  return reply.code(created ? 201 : 200).send(item);
}
