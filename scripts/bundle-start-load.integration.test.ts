import { readMetafile, startLoadByPackage } from './bundle-start-load';

// On the bundles the test set-up builds (pnpm build): what a task's process loads before it reads its task.
describe('what a task process loads at start', () => {
  const meta = readMetafile();

  it('an agent loads its model client and git, not the Kafka, PostgreSQL or PGlite clients it may never use', () => {
    const agent = startLoadByPackage(meta, 'agent-job');
    expect([...agent.keys()]).toEqual(expect.arrayContaining(['openai', 'isomorphic-git', 'apps/coding-agent']));
    // openai on Node's own fetch: none of its node-fetch shims.
    for (const unused of ['kafkajs', 'pg', '@electric-sql/pglite', '@kubernetes/client-node', 'node-fetch', 'tr46'])
      expect(agent.has(unused)).toBe(false);
  });

  it('a build loads neither Kafka nor the Kubernetes client of the launchers', () => {
    const build = startLoadByPackage(meta, 'build-job');
    expect(build.has('apps/builder')).toBe(true);
    for (const unused of ['kafkajs', 'pg', '@electric-sql/pglite', '@kubernetes/client-node'])
      expect(build.has(unused)).toBe(false);
  });
});
