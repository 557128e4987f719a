// A small round-robin reverse proxy (plain node:http) for the cluster bench: the topology of
// deploy/compose.yaml (nginx in front of two instances) without Docker. It appends the client
// address to X-Forwarded-For like nginx's $proxy_add_x_forwarded_for, keeps connections to the
// instances alive and streams bodies both ways (server-sent events included).
// CLI: `node bench/proxy.mjs PORT http://127.0.0.1:A http://127.0.0.1:B`.
import http from 'node:http';

/** Starts the proxy on 127.0.0.1 (a free port when `port` is 0); resolves with its URL and stop(). */
export function startProxy(upstreams, port = 0) {
  const targets = upstreams.map((u) => new URL(u));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const served = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next;
    next = (next + 1) % targets.length;
    served[i] += 1;
    const target = targets[i];
    const forwarded = req.headers['x-forwarded-for'];
    const upstream = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          'x-forwarded-for': forwarded
            ? `${forwarded}, ${req.socket.remoteAddress}`
            : req.socket.remoteAddress,
          'x-forwarded-proto': 'http',
          'x-forwarded-host': req.headers.host ?? '',
        },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        /** Requests sent to each upstream so far. */
        served: () => [...served],
        stop: () =>
          new Promise((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [port, ...upstreams] = process.argv.slice(2);
  if (!upstreams.length) throw new Error('usage: node bench/proxy.mjs PORT UPSTREAM_URL…');
  const proxy = await startProxy(upstreams, Number(port));
  console.log(`proxy ${proxy.url} → ${upstreams.join(', ')}`);
}
