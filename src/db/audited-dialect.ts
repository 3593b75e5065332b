import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type InsertQueryNode,
  type OperationNode,
  type PrimitiveValueListNode,
  type QueryResult,
  type TransactionSettings,
  type ValueListNode,
  type ValueNode,
  type ValuesNode,
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

const WRITES = new Set<string>(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
// Raw SQL (sql`…`) carries no node kind that says what it does: only its text does.
const WRITE_SQL = /^\s*(insert|update|delete|replace|merge)\b/i;
const CTE_WRITE = /^\s*with\b[\s\S]*\b(insert|update|delete)\b/i;

/** Whether a statement changes data: a built insert, update, delete or merge, or raw SQL that starts as one. */
export const isWrite = (query: CompiledQuery) =>
  WRITES.has(query.query.kind) || WRITE_SQL.test(query.sql) || CTE_WRITE.test(query.sql);

const isInsert = (node: OperationNode): node is InsertQueryNode => node.kind === 'InsertQueryNode';
const isValues = (node: OperationNode | undefined): node is ValuesNode => node?.kind === 'ValuesNode';
const isPrimitiveList = (node: OperationNode | undefined): node is PrimitiveValueListNode =>
  node?.kind === 'PrimitiveValueListNode';
const isValueList = (node: OperationNode | undefined): node is ValueListNode => node?.kind === 'ValueListNode';
const isValue = (node: OperationNode | undefined): node is ValueNode => node?.kind === 'ValueNode';

/**
 * The table and `id` of the first row of a built INSERT, when it names one. Read through the operation-node types
 * Kysely exports (each discriminated by its `kind`), the same tree its plugins are given.
 */
function insertedRow(query: CompiledQuery): { table: string; id: string | undefined } | undefined {
  const node = query.query;
  if (!isInsert(node) || !node.into) return undefined;
  const table = node.into.table.identifier.name;
  const at = (node.columns ?? []).findIndex((c) => c.column.name === 'id');
  const first = isValues(node.values) ? node.values.values[0] : undefined;
  let id: unknown;
  if (at >= 0 && isPrimitiveList(first)) id = first.values[at];
  if (at >= 0 && isValueList(first)) {
    const value = first.values[at];
    id = isValue(value) ? value.value : undefined;
  }
  return { table, id: typeof id === 'string' ? id : undefined };
}

/**
 * A dialect whose every write made inside an audited operation carries that operation's audit row in its own
 * transaction: the row is inserted on the same connection just before COMMIT, and a lone statement outside any
 * transaction is wrapped in BEGIN … COMMIT with it. So the row exists exactly when the write does — a rolled-back
 * write leaves none, and no write of an audited operation can commit without one. Everything else is the inner
 * dialect's, unchanged.
 */
export function auditedDialect(inner: Dialect, currentTrail: () => AuditTrail | undefined): Dialect {
  return {
    createDriver: () => new AuditedDriver(inner.createDriver(), currentTrail),
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
  readonly currentTrail: () => AuditTrail | undefined;
  /** Inside a transaction begun through the driver. */
  transaction = false;
  /** The trail whose write this transaction carries, to be written before its COMMIT. */
  carrying: AuditTrail | undefined;

  constructor(inner: DatabaseConnection, currentTrail: () => AuditTrail | undefined) {
    this.inner = inner;
    this.currentTrail = currentTrail;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const trail = this.currentTrail();
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
  readonly currentTrail: () => AuditTrail | undefined;
  readonly wrapped = new WeakMap<DatabaseConnection, AuditedConnection>();

  constructor(inner: Driver, currentTrail: () => AuditTrail | undefined) {
    this.inner = inner;
    this.currentTrail = currentTrail;
  }

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let audited = this.wrapped.get(connection);
    if (!audited) {
      audited = new AuditedConnection(connection, this.currentTrail);
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
