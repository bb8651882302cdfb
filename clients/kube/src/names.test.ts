import { jobName, labelValue } from './names';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

describe('Kubernetes names', () => {
  test('a Job name is a DNS label of at most 63 characters, however long or odd the id', () => {
    for (const id of ['x'.repeat(200), 'A/b c#d', '---', '', 'ok-id', `${'y'.repeat(47)}-z`]) {
      const name = jobName('agt', id, id);
      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(DNS_LABEL);
    }
    expect(jobName('agt', 'x'.repeat(200), 'u')).toHaveLength(63);
  });

  test('two ids that slug alike get different names; the same id and unique part the same one', () => {
    expect(jobName('bld', 'Fix it', 'Fix it')).not.toBe(jobName('bld', 'fix-it', 'fix-it'));
    expect(jobName('agt', 't', 't#1')).not.toBe(jobName('agt', 't', 't#2'));
    expect(jobName('agt', 't', 't#1')).toBe(jobName('agt', 't', 't#1'));
  });

  test('a label value is the id when it is one, else a slug plus a hash', () => {
    expect(labelValue('3f2a-item_1.b')).toBe('3f2a-item_1.b');
    const odd = labelValue('Fix The_Thing/#42');
    expect(odd).toMatch(/^Fix-The_Thing-42-[0-9a-f]{10}$/);
    expect(labelValue('z'.repeat(100)).length).toBeLessThanOrEqual(63);
  });
});
