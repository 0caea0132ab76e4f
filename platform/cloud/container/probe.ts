import { connect } from "node:net";

/** What a data service's health probe found: healthy or not, and in words what the server did. */
export type ProbeAnswer = { healthy: boolean; said: string };

/**
 * Opens a TCP connection to `port` on loopback, sends `greeting`, and answers what `read` makes of what came back
 * so far (undefined: wait for more). No connection, 2 s of silence or a close before an answer are unhealthy;
 * `closed` words the close from what had come.
 */
export function probe(
  port: number,
  greeting: string | Buffer,
  read: (received: Buffer) => ProbeAnswer | undefined,
  closed: (received: Buffer) => string,
): Promise<ProbeAnswer> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const socket = connect({ host: "127.0.0.1", port });
    const done = (answer: ProbeAnswer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2000, () => done({ healthy: false, said: "no answer within 2 s" }));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done({ healthy: false, said: `no answer (${error.code ?? error.message})` }),
    );
    socket.once("close", () => done({ healthy: false, said: closed(received) }));
    socket.once("connect", () => socket.write(greeting));
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const answer = read(received);
      if (answer) done(answer);
    });
  });
}
