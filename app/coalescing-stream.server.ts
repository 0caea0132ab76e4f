import { Transform } from "node:stream";

/**
 * A pass-through stream that hands on what is written within one turn of the event loop as one chunk. React
 * writes a page in pieces of about 2 kB, and each piece costs the response a compression call and a socket write
 * (about a quarter of the app's CPU for the services list). A later write (a suspense boundary resolved after
 * the shell) still goes out in the next turn, so streaming is kept.
 */
export function coalescingStream(): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  const handOn = () => {
    scheduled = false;
    if (!pending.length) return;
    const chunk = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    pending = [];
    stream.push(chunk);
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(handOn);
      }
      callback();
    },
    flush(callback) {
      handOn();
      callback();
    },
  });
  return stream;
}
