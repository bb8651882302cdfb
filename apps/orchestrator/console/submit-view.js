// Submit a change request: repository, title, description, base, check command.
import { api, may } from '/console/api.js';
import { h, show } from '/console/dom.js';

export async function submitView({ main, refusal, caller }) {
  if (!may(caller, 'submit')) {
    return show(
      main,
      h('h1', {}, 'Submit a change request'),
      h(
        'p',
        { 'data-testid': 'no-scope' },
        `Your token (${caller.subject}) may not submit requests: that needs the submit scope. An admin can create a token with it.`,
      ),
      h('p', {}, h('a', { href: '#/requests' }, 'All requests')),
    );
  }
  const field = (id, label, input, hint) =>
    h('label', { for: id }, label, input, hint ? h('span', { class: 'muted', id: `${id}-hint` }, hint) : null);
  const repo = h('input', { id: 'repo', name: 'repo', required: true, 'aria-describedby': 'repo-hint' });
  const title = h('input', { id: 'title', name: 'title', required: true, maxlength: 500 });
  const description = h('textarea', { id: 'description', name: 'description', rows: 5 });
  const base = h('input', { id: 'base', name: 'base', placeholder: 'the repository’s default branch' });
  const check = h('input', { id: 'check-command', name: 'checkCommand', placeholder: 'detected when empty' });
  const approval = h('input', { id: 'require-approval', name: 'requireApproval', type: 'checkbox' });
  const problem = h('div');
  show(
    main,
    h('h1', {}, 'Submit a change request'),
    h(
      'form',
      {
        class: 'stack',
        async onsubmit(e) {
          e.preventDefault();
          const body = {
            title: title.value,
            description: description.value,
            checkCommand: check.value,
            repo: { url: repo.value.trim(), baseRef: base.value.trim() },
            ...(approval.checked ? { requireApproval: true } : {}),
          };
          try {
            const { changeRequestId } = await api('POST', '/v1/change-requests', body);
            location.hash = `#/requests/${encodeURIComponent(changeRequestId)}`;
          } catch (err) {
            show(problem, refusal(err));
          }
        },
      },
      field('repo', 'Repository', repo, 'http(s) clone URL; on `farm up` also a path on the farm’s machine'),
      field('title', 'Title', title),
      field('description', 'Description', description),
      field('base', 'Base branch, tag or commit', base),
      field('check-command', 'Check command', check),
      h(
        'label',
        { for: 'require-approval' },
        approval,
        ' Wait for a person to approve the plan before any task starts',
      ),
      h('div', {}, h('button', { class: 'primary', type: 'submit' }, 'Submit')),
      problem,
    ),
  );
}
