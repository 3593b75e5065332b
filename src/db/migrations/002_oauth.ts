import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * One table for every oidc-provider model (Client, Grant, Session, Interaction, AccessToken, AuthorizationCode,
 * RefreshToken, …). `id` is the SHA-256 of the model's id, so a database read never yields a usable token; the
 * columns beside the JSON payload are what the server queries by.
 */
export const oauth: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oauth_models')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('account_id', 'text')
      .addColumn('client_id', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('consumed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('oauth_models_pk', ['model', 'id'])
      .execute();
    await db.schema.createIndex('oauth_models_grant_id').on('oauth_models').column('grant_id').execute();
    await db.schema.createIndex('oauth_models_uid').on('oauth_models').columns(['model', 'uid']).execute();
    await db.schema.createIndex('oauth_models_account').on('oauth_models').columns(['model', 'account_id']).execute();
    await db.schema.createIndex('oauth_models_client').on('oauth_models').columns(['model', 'client_id']).execute();
    await db.schema.createIndex('oauth_models_expires_at').on('oauth_models').column('expires_at').execute();
  },
};
