import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How long, and how many request-body bytes, a connection is read on (and the bytes discarded) after
 * an answer given before its body arrived, before it is closed. A client that reads while it writes
 * stops at the answer or at the gateway's FIN; one that writes its whole body first needs the time to
 * finish. The bounds keep a client that never stops from holding the connection.
 */
export const LINGER = { ms: 5_000, bytes: 64 * 1024 * 1024 };

/** How often the bytes read while lingering are counted. */
const METER_MS = 50;

const lingering = new WeakSet<Socket>();

/**
 * Closes the connections of answers given before their request body was read (413 from
 * `content-length`, a refusal while the body still streams in) the way Apache and nginx do (a
 * lingering close): the answer, then FIN, then the rest of the body read and discarded until the
 * client is done or `bounds` run out, then the close. Node would close at once after such an answer
 * (`connection: close`); the bytes the client is still sending then arrive at a closed socket, the
 * gateway's kernel answers them with a reset, and the client's kernel may discard the answer unread:
 * the client sees ECONNRESET or EPIPE instead of the 413.
 */
export function lingerOnEarlyAnswers(app: FastifyInstance, bounds = LINGER): void {
  app.addHook('onSend', (request, reply, _payload, done) => {
    if (request.raw.complete === false) {
      // Node closes a connection whose body is unread only when the answer says so: kept alive, it
      // would read (and drop) whatever the client goes on sending, for as long as it sends
      reply.header('connection', 'close');
      closeLingering(request.raw, bounds);
    }
    done();
  });
}

/** Makes the close Node gives `request`'s connection after its answer a lingering one. */
function closeLingering(request: IncomingMessage, bounds: typeof LINGER): void {
  const socket = request.socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node ends a `connection: close` answer with `socket.destroySoon()`: end, then destroy once written
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    // Node's parser reads the socket itself and drops a body nobody asked for: no 'data' to count
    const from = socket.bytesRead;
    const close = () => {
      clearTimeout(timer);
      clearInterval(meter);
      socket.destroy();
    };
    const timer = setTimeout(close, bounds.ms);
    const meter = setInterval(() => {
      if (socket.bytesRead - from > bounds.bytes) close();
    }, METER_MS);
    timer.unref();
    meter.unref();
    request.once('end', close);
    socket.once('end', close);
    socket.once('close', close);
  };
}
