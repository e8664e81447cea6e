import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { postOutbound } from '../../../src/modules/webhooks/outbound.ts';

/**
 * A receiver on raw sockets: every connection answers its first request with 200, kept alive, and drops the
 * connection at the next one without answering, as a receiver does that closes an idle connection just as a
 * request is written on it.
 */
function closingReceiver() {
  const seen: { connection: number; request: number }[] = [];
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net
    .createServer((socket) => {
      sockets.add(socket);
      const connection = ++connections;
      let requests = 0;
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString();
        // Each test request is one small POST with a body of "x": a request is complete once its body has come.
        while (buffered.includes('\r\n\r\nx')) {
          buffered = buffered.slice(buffered.indexOf('\r\n\r\nx') + 5);
          seen.push({ connection, request: ++requests });
          if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n');
          else socket.resetAndDestroy();
        }
      });
      socket.on('error', () => undefined);
    })
    .listen(0, '127.0.0.1');
  const close = () => {
    for (const s of sockets) s.destroy();
    server.close();
  };
  return { server, seen, close, url: () => `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook` };
}

/** A receiver that reads requests and answers each with `answer` (raw bytes), or not at all, then stalls. */
function stallingReceiver(answer: string) {
  const sockets = new Set<net.Socket>();
  const server = net
    .createServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => {
        if (answer) socket.write(answer);
      });
      socket.on('error', () => undefined);
    })
    .listen(0, '127.0.0.1');
  const close = () => {
    for (const s of sockets) s.destroy();
    server.close();
  };
  return { server, close, url: () => `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook` };
}

describe('outbound webhook POST', () => {
  test('a receiver that never answers fails the attempt once its 3 s are up', async () => {
    const rx = stallingReceiver('');
    await new Promise((r) => rx.server.once('listening', r));
    try {
      assert.deepEqual(await postOutbound(rx.url(), {}, 'x', { allowPrivate: true }), {
        status: null,
        error: 'no answer within 3000 ms',
      });
    } finally {
      rx.close();
    }
  });

  test('an answer whose body stalls ends with its time too, keeping its status and what arrived', async () => {
    const rx = stallingReceiver('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nchallenge-');
    await new Promise((r) => rx.server.once('listening', r));
    try {
      assert.deepEqual(await postOutbound(rx.url(), {}, 'x', { allowPrivate: true, readBody: true }), {
        status: 200,
        error: null,
        body: 'challenge-',
      });
    } finally {
      rx.close();
    }
  });

  test('a POST that meets a kept-alive connection the receiver dropped is sent again on a new one, once answered', async () => {
    const rx = closingReceiver();
    await new Promise((r) => rx.server.once('listening', r));
    try {
      const opts = { allowPrivate: true };
      assert.equal((await postOutbound(rx.url(), {}, 'x', opts)).status, 200);
      const second = await postOutbound(rx.url(), {}, 'x', opts);
      assert.equal(second.status, 200, JSON.stringify(second));
      // The second POST went out on the kept-alive connection, was dropped, and was answered on a new connection.
      assert.deepEqual(rx.seen, [
        { connection: 1, request: 1 },
        { connection: 1, request: 2 },
        { connection: 2, request: 1 },
      ]);
    } finally {
      rx.close();
    }
  });

  test('with private targets refused, a private address literal in any spelling is refused before it is dialled', async () => {
    const rx = closingReceiver();
    await new Promise((r) => rx.server.once('listening', r));
    try {
      const port = (rx.server.address() as net.AddressInfo).port;
      const hosts = [
        ...['127.0.0.1', '0x7f.1', '2130706433', '[::ffff:7f00:1]', '[::7f00:1]', '[::ffff:0:7f00:1]'],
        ...['[2002:7f00:1::]', '[64:ff9b:1::7f00:1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]', '[fec0::1]'],
      ];
      const results = await Promise.all(
        hosts.map((h) => postOutbound(`http://${h}:${port}/hook`, {}, 'x', { allowPrivate: false })),
      );
      assert.deepEqual(
        Object.fromEntries(hosts.map((h, i) => [h, results[i]!.error])),
        Object.fromEntries(hosts.map((h) => [h, 'refused: a private address'])),
      );
      assert.deepEqual(rx.seen, [], 'nothing reached the receiver');
    } finally {
      rx.close();
    }
  });
});
