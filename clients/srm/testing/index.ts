export * from './symbol-leases.contract';
