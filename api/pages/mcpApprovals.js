// The approval queue page (docs/mcp.md, Approvals): plain DOM and fetch against the REST API, no build step.
// Everything an agent wrote (tool names, arguments, reasons) is shown as text, never as HTML.
const TOKEN = 'tms.approvals.token';
const $ = (id) => document.getElementById(id);
const say = (text) => {
  $('message').textContent = text;
};

async function api(method, path, body) {
  const headers = { authorization: `Bearer ${sessionStorage.getItem(TOKEN) ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({}));
  if (res.status === 401) showSignIn();
  return { ok: res.ok, answer };
}

function showSignIn() {
  sessionStorage.removeItem(TOKEN);
  $('queue').hidden = true;
  $('sign-in').hidden = false;
}

function render(approval) {
  const item = $('proposal').content.firstElementChild.cloneNode(true);
  item.dataset.id = String(approval.id);
  item.querySelector('.tool').textContent = approval.tool;
  item.querySelector('.meta').textContent =
    `#${approval.id} · ${approval.server} server · proposed by ${approval.proposed_by?.name ?? '?'} · ${approval.status}` +
    (approval.status === 'pending' ? ` · expires ${new Date(approval.expires_at).toLocaleString()}` : '');
  item.querySelector('.reason').textContent = approval.reason ?? '';
  item.querySelector('.arguments').textContent = JSON.stringify(approval.arguments, null, 2);
  const outcome = approval.error
    ? `Failed: ${approval.error.message}`
    : approval.reviewed_by
      ? `${approval.status} by ${approval.reviewed_by.name}`
      : '';
  item.querySelector('.outcome').textContent = outcome;
  if (approval.status !== 'pending') item.querySelector('.actions').remove();
  else {
    item.querySelector('.approve').addEventListener('click', () => decide(approval.id, 'approve', {}));
    item.querySelector('.reject').addEventListener('click', () => {
      const reason = item.querySelector('.reject-reason').value.trim();
      decide(approval.id, 'reject', reason ? { reason } : {});
    });
  }
  return item;
}

async function load() {
  const status = $('status').value;
  const { ok, answer } = await api('GET', `/v1/mcp/approvals?status=${encodeURIComponent(status)}&per_page=100`);
  if (!ok) return say(answer.message ?? 'Could not load the proposals.');
  $('proposals').replaceChildren(...answer.approvals.map(render));
  $('empty').hidden = answer.approvals.length > 0;
}

async function decide(id, action, body) {
  for (const b of document.querySelectorAll(`[data-id="${id}"] button`)) b.disabled = true;
  const { ok, answer } = await api('POST', `/v1/mcp/approvals/${id}/${action}`, body);
  if (ok) {
    const a = answer.approval;
    say(a.status === 'failed' ? `#${id} approved, but the write failed: ${a.error.message}` : `#${id} ${a.status}.`);
  } else say(answer.message ?? `Could not ${action} #${id}.`);
  await load();
}

async function showQueue() {
  const me = await api('GET', '/v1/user/me');
  if (!me.ok) return;
  $('who').textContent = me.answer.name ?? '';
  $('sign-in').hidden = true;
  $('queue').hidden = false;
  await load();
}

$('sign-in').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const res = await fetch('/api/v1/user/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: form.get('email'), password: form.get('password') }),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) return say(answer.message ?? 'Sign-in failed.');
  sessionStorage.setItem(TOKEN, answer.access_token);
  say('');
  await showQueue();
});
$('status').addEventListener('change', load);
$('reload').addEventListener('click', load);
$('sign-out').addEventListener('click', async () => {
  await api('POST', '/v1/user/logout', {});
  showSignIn();
  say('Signed out.');
});

if (sessionStorage.getItem(TOKEN)) showQueue();
else showSignIn();
