import { secretRedactor } from '@farm/runtime';
import { boundedDiff } from './integration-diff';

test('a build diff has the credentials it could contain replaced, and is cut at a line end past its bound', () => {
  const diff = '+const token = "s3cr3t-value";\n+x\n+y\n';
  expect(boundedDiff(diff, secretRedactor(['s3cr3t-value', undefined, 'abc']))).toEqual({
    diff: '+const token = "[secret redacted]";\n+x\n+y\n',
    diffTruncated: false,
  });
  expect(boundedDiff('+aaaa\n+bbbb\n+cccc\n', secretRedactor([]), 13)).toEqual({
    diff: '+aaaa\n+bbbb\n',
    diffTruncated: true,
  });
});
