import assert from 'node:assert/strict';

type Answer = { status: number; body: unknown };

const fieldsOf = (response: Answer) => {
  assert.equal(response.status, 400, JSON.stringify(response.body));
  const body = response.body as { error: string; errors?: { field: string }[] };
  assert.equal(body.error, 'invalid_request');
  return (body.errors ?? []).map((e) => e.field);
};

/** A 400 invalid_request whose field errors begin with `fields` (a schema may add more about the same field). */
export function refusedOn(response: Answer, ...fields: string[]) {
  assert.deepEqual(fieldsOf(response).slice(0, fields.length), fields, JSON.stringify(response.body));
}

/** A 400 invalid_request whose field errors name exactly `fields`, in order. */
export function refusedOnExactly(response: Answer, ...fields: string[]) {
  assert.deepEqual(fieldsOf(response), fields, JSON.stringify(response.body));
}
