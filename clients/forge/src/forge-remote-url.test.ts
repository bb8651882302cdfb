import { repoPathOnForge } from './forge-remote-url';

describe('which repository a git remote names on a forge', () => {
  it('reads https, ssh and scp-like remotes of the forge, ignoring credentials and .git', () => {
    expect(repoPathOnForge('https://x-access-token:secret@github.com/acme/shop.git', 'https://github.com')).toEqual([
      'acme',
      'shop',
    ]);
    expect(repoPathOnForge('git@github.com:acme/shop.git', 'https://github.com')).toEqual(['acme', 'shop']);
    expect(repoPathOnForge('ssh://git@gitlab.example:2222/g/sub/p.git', 'https://gitlab.example')).toEqual([
      'g',
      'sub',
      'p',
    ]);
  });

  it('strips the forge path prefix and refuses other hosts, ports and prefixes', () => {
    expect(repoPathOnForge('https://h.example/gitlab/g/p.git', 'https://h.example/gitlab')).toEqual(['g', 'p']);
    expect(repoPathOnForge('https://h.example/other/g/p.git', 'https://h.example/gitlab')).toBeUndefined();
    expect(repoPathOnForge('https://evil.example/acme/shop.git', 'https://github.com')).toBeUndefined();
    expect(repoPathOnForge('http://127.0.0.1:3001/a/b.git', 'http://127.0.0.1:3000')).toBeUndefined();
    expect(repoPathOnForge('https://github.com/acme', 'https://github.com')).toBeUndefined();
    expect(repoPathOnForge('not a url', 'https://github.com')).toBeUndefined();
  });
});
