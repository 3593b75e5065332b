import type { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * What the database layer knows of the write operation under way in this async context (one API request's handler):
 * that it waits for its audit row, the row itself, and the rows it inserted (a create is named by the first).
 */
export type AuditTrail = {
  /** Takes the right to write the row; true once, so two transactions of one request cannot both write it. */
  claim(): boolean;
  /** Gives the right back: the transaction that claimed it did not commit. */
  release(): void;
  /** Whether the row is still to be written (not claimed, and the handler still running). */
  readonly pending: boolean;
  /** The audit row's INSERT, for the connection's engine. */
  row(): CompiledQuery;
  /** A row was inserted into `table` with this id (the first of a create names what it made). */
  inserted(table: string, id: string | undefined): void;
};

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const WRITE_SQL = /^\s*(insert|update|delete|replace|merge)\b/i;
const CTE_WRITE = /^\s*with\b[\s\S]*\b(insert|update|delete)\b/i;

/** Whether a statement changes data: a built insert, update, delete or merge, or raw SQL that starts as one. */
export const isWrite = (query: CompiledQuery) =>
  WRITES.has(query.query.kind) || WRITE_SQL.test(query.sql) || CTE_WRITE.test(query.sql);

type Node = { kind: string; [key: string]: unknown };

/** The table and `id` of the first row of a built INSERT, when it names one. */
function insertedRow(query: CompiledQuery): { table: string; id: string | undefined } | undefined {
  const node = query.query as unknown as Node;
  if (node.kind !== 'InsertQueryNode') return undefined;
  const table = ((node.into as Node | undefined)?.table as Node | undefined)?.identifier as
    | { name?: string }
    | undefined;
  if (!table?.name) return undefined;
  const columns = ((node.columns ?? []) as { column: { name: string } }[]).map((c) => c.column.name);
  const at = columns.indexOf('id');
  const first = ((node.values as Node | undefined)?.values as Node[] | undefined)?.[0];
  let id: unknown;
  if (at >= 0 && first?.kind === 'PrimitiveValueListNode') id = (first.values as unknown[])[at];
  if (at >= 0 && first?.kind === 'ValueListNode') id = ((first.values as Node[])[at] as { value?: unknown })?.value;
  return { table: table.name, id: typeof id === 'string' ? id : undefined };
}

/**
 * A dialect whose every write made inside an audited operation carries that operation's audit row in its own
 * transaction: the row is inserted on the same connection just before COMMIT, and a lone statement outside any
 * transaction is wrapped in BEGIN … COMMIT with it. So the row exists exactly when the write does — a rolled-back
 * write leaves none, and no write of an audited operation can commit without one. Everything else is the inner
 * dialect's, unchanged.
 */
export function auditedDialect(inner: Dialect, trails: AsyncLocalStorage<AuditTrail>): Dialect {
  return {
    createDriver: () => new AuditedDriver(inner.createDriver(), trails),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/** One connection as the audited driver hands it out: it knows whether it is inside a transaction, and whose. */
class AuditedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly trails: AsyncLocalStorage<AuditTrail>;
  /** Inside a transaction begun through the driver. */
  transaction = false;
  /** The trail whose write this transaction carries, to be written before its COMMIT. */
  carrying: AuditTrail | undefined;

  constructor(inner: DatabaseConnection, trails: AsyncLocalStorage<AuditTrail>) {
    this.inner = inner;
    this.trails = trails;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const trail = this.trails.getStore();
    if (!trail?.pending || !isWrite(query)) return this.inner.executeQuery<R>(query);
    const row = insertedRow(query);
    if (row) trail.inserted(row.table, row.id);
    if (this.transaction) {
      this.carrying = trail;
      return this.inner.executeQuery<R>(query);
    }
    if (!trail.claim()) return this.inner.executeQuery<R>(query);
    await this.inner.executeQuery(BEGIN);
    try {
      const result = await this.inner.executeQuery<R>(query);
      await this.inner.executeQuery(trail.row());
      await this.inner.executeQuery(COMMIT);
      return result;
    } catch (error) {
      trail.release();
      await this.inner.executeQuery(ROLLBACK).catch(() => undefined);
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number) {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class AuditedDriver implements Driver {
  readonly inner: Driver;
  readonly trails: AsyncLocalStorage<AuditTrail>;
  readonly wrapped = new WeakMap<DatabaseConnection, AuditedConnection>();

  constructor(inner: Driver, trails: AsyncLocalStorage<AuditTrail>) {
    this.inner = inner;
    this.trails = trails;
  }

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let audited = this.wrapped.get(connection);
    if (!audited) {
      audited = new AuditedConnection(connection, this.trails);
      this.wrapped.set(connection, audited);
    }
    return audited;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const audited = connection as AuditedConnection;
    await this.inner.beginTransaction(audited.inner, settings);
    audited.transaction = true;
    audited.carrying = undefined;
  }

  async commitTransaction(connection: DatabaseConnection) {
    const audited = connection as AuditedConnection;
    const trail = audited.carrying;
    audited.carrying = undefined;
    const claimed = trail?.claim() === true;
    try {
      if (claimed) await audited.inner.executeQuery((trail as AuditTrail).row());
      await this.inner.commitTransaction(audited.inner);
    } catch (error) {
      if (claimed) trail?.release();
      throw error;
    } finally {
      audited.transaction = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const audited = connection as AuditedConnection;
    audited.carrying = undefined;
    audited.transaction = false;
    await this.inner.rollbackTransaction(audited.inner);
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['savepoint']>>[2],
  ) {
    if (!this.inner.savepoint) throw new Error('This database does not support savepoints');
    await this.inner.savepoint((connection as AuditedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ) {
    if (!this.inner.rollbackToSavepoint) throw new Error('This database does not support savepoints');
    await this.inner.rollbackToSavepoint((connection as AuditedConnection).inner, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ) {
    if (!this.inner.releaseSavepoint) throw new Error('This database does not support savepoints');
    await this.inner.releaseSavepoint((connection as AuditedConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection((connection as AuditedConnection).inner);
  }

  destroy() {
    return this.inner.destroy();
  }
}
