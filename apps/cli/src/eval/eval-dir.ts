import path from 'node:path';
import { FARM_ROOT } from '@farm/runtime';

/**
 * Where `farm eval` keeps its runs unless told otherwise: the checkout's `.farm/eval`, beside `farm up`'s state,
 * whatever the current directory. (Its own module: the commands' declarations load it for their help.)
 */
export const DEFAULT_EVAL_DIR = path.join(FARM_ROOT, '.farm', 'eval');
