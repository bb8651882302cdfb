import { compileCacheDir } from './compile-cache';

describe('the compile cache of the farm processes', () => {
  it('lives under the temp dir unless Node is told where, or not, to keep one', () => {
    expect(compileCacheDir({}, '/tmp')).toBe('/tmp/farm-compile-cache');
    // Node reads these itself, before any module runs: the farm leaves them to it.
    expect(compileCacheDir({ NODE_COMPILE_CACHE: '/var/cache/node' }, '/tmp')).toBeUndefined();
    expect(compileCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, '/tmp')).toBeUndefined();
  });
});
