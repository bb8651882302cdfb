import { giteaRepoFor, giteaReviewState } from './gitea';

describe('giteaRepoFor', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/alice/app.git', 'alice/app'],
    ['http://127.0.0.1:3000', 'http://bob:tok@127.0.0.1:3000/alice/app', 'alice/app'],
    ['https://git.example.com/gitea/', 'https://git.example.com/gitea/alice/app.git', 'alice/app'],
    ['https://git.example.com', 'git@git.example.com:alice/app.git', 'alice/app'],
    ['https://git.example.com', 'ssh://git@git.example.com:2222/alice/app.git', 'alice/app'],
  ])('%s names %s as %s', (web, remote, fullName) => {
    expect(giteaRepoFor(web, remote)).toEqual({ fullName });
  });

  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3001/alice/app.git'],
    ['https://git.example.com', 'https://github.com/alice/app.git'],
    ['https://git.example.com/gitea', 'https://git.example.com/alice/app.git'],
    ['https://git.example.com', 'https://git.example.com/alice/app/extra'],
    ['https://git.example.com', 'not a url'],
  ])('%s does not own %s', (web, remote) => {
    expect(giteaRepoFor(web, remote)).toBeUndefined();
  });
});

describe('giteaReviewState', () => {
  it('maps Gitea’s review states to the farm’s', () => {
    expect(
      ['APPROVED', 'REQUEST_CHANGES', 'COMMENT', 'PENDING', 'REQUEST_REVIEW'].map((s) => giteaReviewState(s)),
    ).toEqual(['approved', 'changes_requested', 'commented', 'pending', 'pending']);
    expect(giteaReviewState('REQUEST_CHANGES', true)).toBe('dismissed');
  });
});
