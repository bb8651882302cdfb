export * from './lease';
export * from './errors';
export * from './task-commits';
export { srmMigrations } from './schema';
export { PostgresSymbolLeases } from './postgres-symbol-leases';
export { HttpSymbolLeases } from './http-symbol-leases';
