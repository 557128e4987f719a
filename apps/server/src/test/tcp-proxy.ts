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
  /** Listens again on the same port and forwards as before. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let held = false;
  const onConnection = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('data', (chunk: Buffer) => {
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
      held = false;
      await closed;
    },
    restore: listen,
    async close() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (server.listening) await stopListening();
    },
  };
}
