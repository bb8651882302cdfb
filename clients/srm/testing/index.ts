export * from './symbol-leases.contract';
export * from './task-commits.contract';
