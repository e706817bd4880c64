/**
 * The PostgreSQL schema of cluster mode: the same tables, columns and indexes as `schema.ts`
 * (SQLite), with the types of `schema-pg/columns.ts`, plus the cluster's shared state.
 */
export * from "./schema-pg/accounts";
export * from "./schema-pg/links";
export * from "./schema-pg/secure";
export * from "./schema-pg/tracking";
export * from "./schema-pg/channels";
export * from "./schema-pg/delivery";
export * from "./schema-pg/bot";
export * from "./schema-pg/webhooks";
export * from "./schema-pg/analytics";
export * from "./schema-pg/cluster";
export * from "./schema-pg/storage";
