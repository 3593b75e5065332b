import { type Compilable, CompiledQuery, type QueryResult } from 'kysely';
import type { Db } from './tables.ts';

const MARK = '\u0000lyceum:';

/**
 * A query Kysely builds and compiles once, with named placeholders, then runs with values: the hot paths of the
 * authorization server ask the same few questions thousands of times, and building each afresh was a visible share
 * of their CPU. `build` receives `param(name)` to put where a value goes; `run(values)` gives each name its value.
 */
export function preparedQuery<Row>(db: Db, build: (param: (name: string) => never) => Compilable<Row>) {
  const compiled = build((name) => `${MARK}${name}` as never).compile();
  const names = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : undefined,
  );
  return (values: Record<string, unknown>): Promise<QueryResult<Row>> => {
    const parameters = compiled.parameters.map((value, i) => {
      const name = names[i];
      return name === undefined ? value : values[name];
    });
    return db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters));
  };
}
