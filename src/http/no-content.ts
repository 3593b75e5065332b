/** Runs an operation that answers nothing, then replies 204 No Content. */
export async function noContent<R>(reply: { code(status: 204): { send(payload: null): R } }, work: Promise<unknown>) {
  await work;
  return reply.code(204).send(null);
}
