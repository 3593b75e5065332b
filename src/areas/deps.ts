import type { Config } from '../config.ts';
import type { Clock } from '../db/clock.ts';
import type { Db } from '../db/tables.ts';

/** What every area is built from; the composition root (app.ts) passes it. */
export type AreaDeps = { db: Db; clock: Clock; config: Config };
