import { WebhookRejected } from './forge';
import { GitHubWebhooks } from './github-webhooks';
import { hmacSha256Signature } from './webhook-signature';

const secret = 'hook-secret';
const body = Buffer.from(JSON.stringify({ action: 'ping', zen: 'SECRET-PAYLOAD-TEXT' }));
const headers = (over: Record<string, string | undefined> = {}) => ({
  'x-hub-signature-256': hmacSha256Signature(body, secret),
  'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
  'x-github-event': 'ping',
  ...over,
});

function refusal(h: Record<string, string | undefined>, s = secret, b = body): WebhookRejected {
  try {
    new GitHubWebhooks().verify(h, b, s);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookRejected);
    expect((err as Error).message).not.toContain('SECRET-PAYLOAD-TEXT');
    return err as WebhookRejected;
  }
  throw new Error('delivery was accepted');
}

describe('GitHub webhook deliveries', () => {
  it('accepts a delivery signed with the secret and names its id and event', () => {
    expect(new GitHubWebhooks().verify(headers(), body, secret)).toEqual({
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      event: 'ping',
    });
  });

  it('refuses a wrong secret, a tampered body, a malformed or missing signature and missing headers', () => {
    expect(refusal(headers(), 'other-secret').message).toMatch(/does not match/);
    expect(refusal(headers(), secret, Buffer.from(body.toString() + ' ')).message).toMatch(/does not match/);
    expect(refusal(headers({ 'x-hub-signature-256': 'sha1=abc' })).message).toMatch(/not sha256=/);
    expect(refusal(headers({ 'x-hub-signature-256': undefined })).message).toMatch(/missing x-hub-signature-256/);
    expect(refusal(headers({ 'x-github-delivery': undefined })).message).toMatch(/missing x-github-delivery/);
    expect(refusal(headers(), '').message).toMatch(/no webhook secret/);
  });

  it('parses nothing from events the farm does not act on', () => {
    expect(new GitHubWebhooks().parse({ deliveryId: 'd', event: 'ping' }, { zen: 'x' })).toBeUndefined();
    expect(new GitHubWebhooks().parse({ deliveryId: 'd', event: 'issues' }, { action: 'closed' })).toBeUndefined();
  });
});
