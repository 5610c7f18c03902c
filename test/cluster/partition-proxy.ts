/**
 * A network partition without privileges: a TCP relay the partitioned process reaches
 * PostgreSQL and NATS through. `partition()` holds every byte in both directions (and every
 * close), as a cut link does to packets in flight, while both ends' sockets stay open; `heal()`
 * delivers what was held, late, in order, as a link that comes back does. So the old leader's
 * appends sent during the cut reach PostgreSQL only after a new leader has taken over.
 *
 * Network namespaces would need root (a user namespace's network has no route to the host's
 * PostgreSQL); this runs wherever the tests do, CI included.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface PartitionProxy {
  port: number;
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

interface Direction {
  held: Buffer[];
  ended: boolean;
}

export async function partitionProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<PartitionProxy> {
  let cut = false;
  const flushes: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket): void => {
    const direction: Direction = { held: [], ended: false };
    const flush = () => {
      for (const chunk of direction.held) to.write(chunk);
      direction.held = [];
      if (direction.ended) to.end();
    };
    flushes.push(flush);
    from.on('data', (chunk: Buffer) => {
      if (cut) direction.held.push(chunk);
      else to.write(chunk);
    });
    from.on('end', () => {
      direction.ended = true;
      if (!cut) to.end();
    });
  };
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    partition() {
      cut = true;
    },
    heal() {
      cut = false;
      for (const flush of flushes) flush();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
