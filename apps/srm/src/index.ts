export { startSrmServer } from './server';
export { srmConfigSchema, loadSrmConfig, type SrmConfig } from './config';
