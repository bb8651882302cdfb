import { ConfigError } from '@farm/runtime';

import { startGitHubDouble } from '../testing/github-double';
import { githubWebhookPayload } from '../testing/github-webhook-payloads';
import { startGitLabDouble } from '../testing/gitlab-double';
import { createForge, forgeFromConfig, webhookReaderFor } from './create-forge';
import { forgeConfigSchema } from './forge-config';

const config = (env: Record<string, string>) => forgeConfigSchema.parse(env);
const noCredentials = () => undefined;

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('no ConfigError');
}

describe('the forge the settings make', () => {
  it('is none without FARM_FORGE_KIND', () => {
    expect(forgeFromConfig(config({}), noCredentials)).toBeUndefined();
  });

  it('defaults the web address of GitHub and GitLab, and takes FARM_FORGE_URL for a self-hosted one', () => {
    const gh = forgeFromConfig(config({ FARM_FORGE_KIND: 'github', FARM_FORGE_TOKEN: 't' }), noCredentials)!;
    expect([gh.forge.kind, gh.forge.webUrl, gh.webhooks.kind]).toEqual(['github', 'https://github.com', 'github']);
    const gl = forgeFromConfig(config({ FARM_FORGE_KIND: 'gitlab', FARM_FORGE_TOKEN: 't' }), noCredentials)!;
    expect([gl.forge.kind, gl.forge.webUrl, gl.webhooks.kind]).toEqual(['gitlab', 'https://gitlab.com', 'gitlab']);
    const own = forgeFromConfig(
      config({ FARM_FORGE_KIND: 'gitlab', FARM_FORGE_URL: 'https://git.example/gitlab', FARM_FORGE_TOKEN: 't' }),
      noCredentials,
    )!;
    expect(own.forge.repoFor('https://git.example/gitlab/team/app.git')).toEqual({ fullName: 'team/app' });
  });

  it('uses FARM_FORGE_TOKEN and FARM_FORGE_API_URL for its calls', async () => {
    const double = await startGitHubDouble();
    try {
      const asked: string[] = [];
      const { forge } = forgeFromConfig(
        config({ FARM_FORGE_KIND: 'github', FARM_FORGE_API_URL: double.apiUrl, FARM_FORGE_TOKEN: double.token }),
        (url) => (asked.push(url), 'not-this-one'),
      )!;
      double.addPull({ head: 'farm/cr-1' });
      expect(await forge.findPullRequest({ fullName: 'acme/shop' }, 'farm/cr-1')).toMatchObject({
        headBranch: 'farm/cr-1',
      });
      expect(double.violations).toEqual([]);
      expect(asked).toEqual([]);
    } finally {
      await double.close();
    }
  });

  it('falls back to the git credentials for the forge URL when FARM_FORGE_TOKEN is unset', async () => {
    const double = await startGitLabDouble({ project: 'team/app' });
    try {
      const asked: string[] = [];
      const { forge } = forgeFromConfig(
        config({ FARM_FORGE_KIND: 'gitlab', FARM_FORGE_URL: 'https://git.example', FARM_FORGE_API_URL: double.apiUrl }),
        (url) => (asked.push(url), double.token),
      )!;
      const issue = double.addIssue({ title: 'x', labels: ['agent-farm'] });
      expect(await forge.listLabelledIssues({ fullName: 'team/app' }, 'agent-farm')).toEqual([
        expect.objectContaining({ number: issue.iid }),
      ]);
      expect(asked).toEqual(['https://git.example']);
      expect(double.violations).toEqual([]);
    } finally {
      await double.close();
    }
  });

  it('stops start-up naming the setting when the token or the URL is missing', () => {
    expect(configError(() => forgeFromConfig(config({ FARM_FORGE_KIND: 'github' }), noCredentials))).toMatch(
      /FARM_FORGE_TOKEN is not set and git has no credentials for https:\/\/github.com/,
    );
    expect(
      configError(() => forgeFromConfig(config({ FARM_FORGE_KIND: 'gitea', FARM_FORGE_TOKEN: 't' }), noCredentials)),
    ).toMatch(/FARM_FORGE_URL is required when FARM_FORGE_KIND=gitea/);
    const gitea = forgeFromConfig(
      config({ FARM_FORGE_KIND: 'gitea', FARM_FORGE_URL: 'http://127.0.0.1:3000', FARM_FORGE_TOKEN: 't' }),
      noCredentials,
    );
    expect([gitea?.forge.kind, gitea?.forge.webUrl, gitea?.webhooks.kind]).toEqual([
      'gitea',
      'http://127.0.0.1:3000',
      'gitea',
    ]);
  });

  it('gives the webhook reader the configured label', () => {
    const { webhooks } = forgeFromConfig(
      config({ FARM_FORGE_KIND: 'github', FARM_FORGE_TOKEN: 't', FARM_FORGE_LABEL: 'robots' }),
      noCredentials,
    )!;
    const payload = githubWebhookPayload('issues-opened', {
      action: 'opened',
      issue: {
        number: 3,
        title: 't',
        html_url: 'https://github.com/acme/shop/issues/3',
        state: 'open',
        user: { login: 'ann' },
        labels: [{ name: 'bug' }, { name: 'robots' }],
      },
      repository: { full_name: 'acme/shop' },
      sender: { login: 'ann' },
    });
    expect(webhooks.parse({ deliveryId: 'd', event: 'issues' }, payload)).toMatchObject({ label: 'robots' });
  });

  it('makes each kind by name', () => {
    expect(createForge({ kind: 'github', token: 't' }).kind).toBe('github');
    expect(createForge({ kind: 'gitlab', token: 't' }).kind).toBe('gitlab');
    expect(webhookReaderFor('gitlab').kind).toBe('gitlab');
  });
});

describe('what the farm writes on the forge', () => {
  it("carries neither the forge's token, the webhook secret nor a URL's credentials, wherever they are quoted", async () => {
    const double = await startGitHubDouble();
    try {
      const hook = 'canary-webhook-secret-1';
      const { forge } = forgeFromConfig(
        config({
          FARM_FORGE_KIND: 'github',
          FARM_FORGE_API_URL: double.apiUrl,
          FARM_FORGE_TOKEN: double.token,
          FARM_FORGE_WEBHOOK_SECRET: hook,
        }),
        noCredentials,
      )!;
      const repo = { fullName: `${double.owner}/${double.repo}` };
      const quoted = `notes: ${double.token} ${hook} http://bot:canary-url-token-2@git.example/r.git`;
      const issue = double.addIssue({ title: 'Fix it' });
      await forge.comment(repo, issue.number, quoted);
      const { pull } = await forge.openOrUpdatePullRequest({
        repo,
        head: 'farm/cr-1',
        base: 'main',
        title: quoted,
        body: quoted,
      });
      await forge.setCommitStatus({
        repo,
        sha: pull.headSha,
        state: 'failure',
        context: 'agent-farm',
        description: quoted,
      });
      const written = JSON.stringify([double.comments, double.pulls, double.statuses]);
      expect(double.violations).toEqual([]);
      for (const secret of [double.token, hook, 'canary-url-token-2']) expect(written).not.toContain(secret);
      expect(double.comments[0].body).toContain('[secret redacted]');
    } finally {
      await double.close();
    }
  });
});
