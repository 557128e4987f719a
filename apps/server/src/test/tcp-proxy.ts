import net from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL in the fault tests) that a test can stall and cut,
 * to simulate a restart of the server without touching the real one that other tests share.
 */
export interface TcpProxy {
  port: number;
  /** Stops forwarding client bytes: queries sent from now on wait, as on a server that hangs. */
  hold(): void;
  /** Destroys every open connection and refuses new ones (the port stops listening). */
  cut(): Promise<void>;
  /**
   * Destroys every open connection and goes on listening (a network cut that heals at once, or a
   * restart of a pooler in front of the server); returns how many client connections it cut.
   */
  drop(): number;
  /**
   * While set, a new connection whose first bytes contain `marker` is closed at once (for
   * PostgreSQL: the `application_name` of its startup message); null lets every one through.
   */
  block(marker: string | null): void;
  /** Listens again on the same port and forwards as before. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let held = false;
  let blocked: string | null = null;
  const onConnection = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    clients.add(client);
    let first = true;
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      clients.delete(client);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('data', (chunk: Buffer) => {
      if (first) {
        first = false;
        if (blocked !== null && chunk.includes(blocked)) return drop();
      }
      if (!held) {
        upstream.write(chunk);
        return;
      }
      // dropped and the client paused until the cut: the query never reaches the server
      client.pause();
    });
    upstream.pipe(client);
  };
  let server = net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer(onConnection);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    hold() {
      held = true;
    },
    async cut() {
      const closed = stopListening();
      for (const s of sockets) s.destroy();
      sockets.clear();
      clients.clear();
      held = false;
      await closed;
    },
    drop() {
      const cut = clients.size;
      for (const s of sockets) s.destroy();
      sockets.clear();
      clients.clear();
      return cut;
    },
    block(marker) {
      blocked = marker;
    },
    restore: listen,
    async close() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (server.listening) await stopListening();
    },
  };
}
