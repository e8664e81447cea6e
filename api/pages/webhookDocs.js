// The webhook catalog page (docs/decisions.md, API reference pages): plain DOM over /api/asyncapi-webhooks.json, no
// build step. Every event with its payload schema as a tree and its example payloads as JSON. Everything from the
// document is shown as text, never as HTML.
const $ = (id) => document.getElementById(id);
let doc = {};

/** An element with attributes and children; a string child is a text node. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) node.setAttribute(name, value);
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/**
 * Descriptions are CommonMark: paragraphs and `code` are kept, everything else stays as typed. Text nodes only.
 */
function prose(text, tag = 'p', attrs = {}) {
  return String(text)
    .split(/\n\s*\n/)
    .map((para) =>
      el(
        tag,
        attrs,
        para.split('`').map((part, i) => (i % 2 ? el('code', {}, part) : part)),
      ),
    );
}

/** A local JSON pointer (#/components/schemas/x) into the document, undefined for any other. */
function pointer(ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let node = doc;
  for (const part of ref.slice(2).split('/')) {
    node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** The schema a node stands for, its local $refs followed; `trail` holds the refs already open above it. */
function resolve(node, trail) {
  let hops = 0;
  while (node && typeof node.$ref === 'string' && hops++ < 32) {
    if (trail.has(node.$ref)) return { recursive: node.$ref };
    trail = new Set(trail).add(node.$ref);
    node = pointer(node.$ref);
  }
  return { schema: node && typeof node === 'object' ? node : {}, trail };
}

const variantsOf = (s) => s.anyOf ?? s.oneOf ?? null;
const hasChildren = (s, trail) => {
  if (s.properties || s.allOf) return true;
  if (s.items) {
    const items = resolve(s.items, trail);
    return !!items.schema && hasChildren(items.schema, items.trail);
  }
  const variants = variantsOf(s);
  if (variants) return variants.some((v) => hasChildren(resolve(v, trail).schema ?? {}, trail));
  return typeof s.additionalProperties === 'object';
};

/** A short type: `string (date-time)`, `integer | null`, `array of object`. */
function typeOf(s, trail) {
  if ('const' in s) return typeof s.const === 'string' ? 'string' : typeof s.const;
  const variants = variantsOf(s);
  if (variants) return variants.map((v) => typeOf(resolve(v, trail).schema ?? {}, trail)).join(' | ');
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : [];
  if (types.length === 0) return s.allOf ? 'object' : 'any';
  return types
    .map((t) => {
      if (t === 'array' && s.items) return `array of ${typeOf(resolve(s.items, trail).schema ?? {}, trail)}`;
      return s.format && t !== 'null' ? `${t} (${s.format})` : t;
    })
    .join(' | ');
}

// JavaScript's safe-integer bounds say nothing a reader needs.
const SAFE = 9007199254740991;
const json = (v) => JSON.stringify(v);

/** The constraints worth reading: fixed value, allowed values, lengths, bounds, pattern, default. */
function rulesOf(s) {
  const rules = [];
  if ('const' in s) rules.push(`always ${json(s.const)}`);
  if (Array.isArray(s.enum)) rules.push(`one of ${s.enum.map(json).join(', ')}`);
  if (s.minLength !== undefined || s.maxLength !== undefined)
    rules.push(`length ${s.minLength ?? 0}..${s.maxLength ?? '∞'}`);
  const min = s.minimum !== undefined && Math.abs(s.minimum) !== SAFE ? s.minimum : undefined;
  const max = s.maximum !== undefined && Math.abs(s.maximum) !== SAFE ? s.maximum : undefined;
  if (min !== undefined || max !== undefined) rules.push(`${min ?? '−∞'}..${max ?? '∞'}`);
  if (s.minItems !== undefined || s.maxItems !== undefined)
    rules.push(`items ${s.minItems ?? 0}..${s.maxItems ?? '∞'}`);
  if (s.pattern) rules.push(`pattern ${s.pattern}`);
  if ('default' in s) rules.push(`default ${json(s.default)}`);
  return rules;
}

/** The nested part of a schema: its properties, its items' properties, its variants, its map values. */
function childrenOf(s, trail, depth) {
  const lists = [];
  if (s.properties) {
    const required = new Set(s.required ?? []);
    lists.push(
      el(
        'ul',
        { class: 'schema' },
        Object.entries(s.properties).map(([name, sub]) => property(name, sub, required.has(name), trail, depth)),
      ),
    );
  }
  for (const part of s.allOf ?? []) {
    const r = resolve(part, trail);
    if (r.schema) lists.push(...childrenOf(r.schema, r.trail, depth));
  }
  if (s.items) {
    const r = resolve(s.items, trail);
    if (r.recursive) lists.push(el('p', { class: 'variant' }, `each item: ${r.recursive} (shown above)`));
    else if (hasChildren(r.schema, r.trail)) lists.push(...childrenOf(r.schema, r.trail, depth));
  }
  const variants = variantsOf(s);
  if (variants && variants.some((v) => hasChildren(resolve(v, trail).schema ?? {}, trail))) {
    lists.push(
      el(
        'ul',
        { class: 'schema' },
        variants.map((v, i) =>
          property(`${s.oneOf ? 'one of' : 'any of'}, variant ${i + 1}`, v, false, trail, depth, true),
        ),
      ),
    );
  }
  if (typeof s.additionalProperties === 'object') {
    lists.push(el('ul', { class: 'schema' }, property('(any key)', s.additionalProperties, false, trail, depth)));
  }
  return lists;
}

/** One line of the tree: name, type, required, constraints, description, and what it holds. */
function property(name, node, required, trail, depth, variant = false) {
  const r = resolve(node, trail);
  const item = el('li', { 'data-property': variant ? undefined : name });
  item.append(el('span', { class: variant ? 'variant' : 'name' }, name));
  if (r.recursive) {
    item.append(el('span', { class: 'type' }, `${r.recursive.split('/').pop()} (recursive, shown above)`));
    return item;
  }
  const s = r.schema;
  item.append(el('span', { class: 'type' }, typeOf(s, r.trail)));
  if (required) item.append(el('span', { class: 'required' }, 'required'));
  for (const rule of rulesOf(s)) item.append(el('span', { class: 'rule' }, rule));
  if (s.description) item.append(...prose(s.description, 'span', { class: 'doc' }));
  if (s.deprecated) item.append(el('span', { class: 'doc' }, 'Deprecated.'));
  const children = childrenOf(s, r.trail, depth + 1);
  if (children.length > 0) {
    const details = el('details', {}, el('summary', {}, 'fields'), children);
    details.open = depth < 2;
    item.append(details);
  }
  return item;
}

/** The top of a payload or headers schema: its own description, then its fields. */
function schemaTree(node) {
  const r = resolve(node, new Set());
  if (r.recursive) return el('p', {}, r.recursive);
  const children = childrenOf(r.schema, r.trail, 0);
  return el('div', {}, children.length ? children : el('p', { class: 'muted' }, typeOf(r.schema, r.trail)));
}

const refName = (ref) => (typeof ref === 'string' ? ref.split('/').pop().replaceAll('~1', '/') : undefined);
const slug = (prefix, name) => `${prefix}-${name}`;

function exampleBlock(example, index) {
  const title = example.summary ?? example.name ?? `Example ${index + 1}`;
  return el(
    'div',
    { class: 'example' },
    el('p', { class: 'muted' }, title),
    example.headers ? el('pre', { class: 'example-headers' }, JSON.stringify(example.headers, null, 2)) : null,
    'payload' in example ? el('pre', { class: 'example-payload' }, JSON.stringify(example.payload, null, 2)) : null,
  );
}

function eventCard(name, message, channelsOf) {
  const payload = resolve(message.payload ?? {}, new Set()).schema ?? {};
  const summary = message.summary ?? payload.description;
  const examples = message.examples?.length ? message.examples : (payload.examples ?? []).map((p) => ({ payload: p }));
  const traits = (message.traits ?? []).map((t) => refName(t.$ref)).filter(Boolean);
  return el(
    'section',
    { class: 'card event', id: slug('event', name), 'data-event': name },
    el('h3', {}, el('code', {}, name)),
    summary ? prose(summary) : null,
    message.description && message.description !== summary ? prose(message.description) : null,
    el(
      'ul',
      { class: 'tags' },
      el('li', {}, message.contentType ?? doc.defaultContentType ?? 'application/json'),
      (channelsOf.get(name) ?? []).map((c) => el('li', {}, 'sent to ', el('a', { href: `#${slug('channel', c)}` }, c))),
      traits.map((t) => el('li', {}, 'headers ', el('a', { href: `#${slug('trait', t)}` }, t))),
    ),
    message.headers ? [el('h4', {}, 'Headers'), schemaTree(message.headers)] : null,
    el('h4', {}, 'Payload'),
    el('div', { class: 'payload' }, schemaTree(message.payload ?? {})),
    el('h4', {}, examples.length > 1 ? 'Examples' : 'Example'),
    examples.length ? examples.map(exampleBlock) : el('p', { class: 'muted' }, 'No example declared.'),
  );
}

function render() {
  const info = doc.info ?? {};
  document.title = `${info.title ?? 'Webhooks'} · Transport Management Service`;
  $('title').textContent = info.title ?? 'Webhooks';
  $('version').textContent = `Version ${info.version ?? '?'} · AsyncAPI ${doc.asyncapi ?? '?'}`;
  $('description').replaceChildren(...prose(info.description ?? '', 'span', { class: 'para' }));

  // Which settings fields each event is sent to, from the channels' message lists.
  const channelsOf = new Map();
  const channels = Object.entries(doc.channels ?? {});
  for (const [id, channel] of channels) {
    for (const [key, m] of Object.entries(channel.messages ?? {})) {
      const name = refName(m.$ref) ?? key;
      channelsOf.set(name, [...(channelsOf.get(name) ?? []), channel.title ?? id]);
    }
  }
  const operations = Object.values(doc.operations ?? {});
  $('channels').replaceChildren(
    ...channels.map(([id, channel]) => {
      const op = operations.find((o) => o.channel?.$ref === `#/channels/${id}`) ?? {};
      const title = channel.title ?? id;
      return el(
        'section',
        { class: 'card channel', id: slug('channel', title) },
        el('h3', {}, el('code', {}, title)),
        channel.description ? prose(channel.description) : null,
        op.description && op.description !== channel.description ? prose(op.description) : null,
        el(
          'ul',
          { class: 'tags' },
          Object.entries(channel.messages ?? {}).map(([key, m]) => {
            const name = refName(m.$ref) ?? key;
            return el('li', {}, el('a', { href: `#${slug('event', name)}` }, name));
          }),
        ),
      );
    }),
  );
  $('traits').replaceChildren(
    ...Object.entries(doc.components?.messageTraits ?? {}).map(([name, trait]) =>
      el(
        'section',
        { class: 'card trait', id: slug('trait', name) },
        el('h3', {}, el('code', {}, name)),
        el('p', { class: 'muted' }, `The headers of every event whose sender is ${name}.`),
        trait.headers ? schemaTree(trait.headers) : el('p', { class: 'muted' }, 'No headers declared.'),
      ),
    ),
  );
  const messages = Object.entries(doc.components?.messages ?? {});
  $('events').replaceChildren(...messages.map(([key, m]) => eventCard(m.name ?? key, m, channelsOf)));
  $('index').replaceChildren(
    ...messages.map(([key, m]) =>
      el('li', { 'data-event': m.name ?? key }, el('a', { href: `#${slug('event', m.name ?? key)}` }, m.name ?? key)),
    ),
  );
  for (const id of ['channels-section', 'traits-section', 'events-section']) $(id).hidden = false;
  $('status').textContent = `${messages.length} events on ${channels.length} settings fields.`;
  // The anchor of a link into the page exists only now.
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

// Narrows the index and the events to the names that contain the words typed.
$('filter').addEventListener('input', () => {
  const words = $('filter').value.trim().toLowerCase();
  for (const node of document.querySelectorAll('[data-event]')) {
    node.hidden = words !== '' && !node.dataset.event.toLowerCase().includes(words);
  }
});

fetch('/api/asyncapi-webhooks.json')
  .then(async (res) => {
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    doc = await res.json();
    render();
  })
  .catch((err) => {
    $('status').textContent = `Could not load /api/asyncapi-webhooks.json: ${err.message}`;
  });
