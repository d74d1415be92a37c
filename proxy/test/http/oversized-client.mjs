// A client in a thread of its own (so that it writes while the gateway answers, as a separate process
// would): posts a chat body of `bytes` to `url` over a raw socket, 64 kB at a time until it has written
// it all or the connection is gone, and posts back everything it received before the connection closed
// ('' when a reset discarded the answer).
import { connect } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { url, bytes, authorization } = workerData;
const { hostname, port } = new URL(url);
const body = Buffer.from(
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(bytes) }] }),
);
let received = '';
const socket = connect(Number(port), hostname, () => {
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: ${authorization}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
  );
  let offset = 0;
  const more = () => {
    while (offset < body.length && !socket.destroyed) {
      const piece = body.subarray(offset, offset + 65_536);
      offset += piece.length;
      if (!socket.write(piece)) return socket.once('drain', more);
    }
  };
  more();
});
socket.setEncoding('utf8');
socket.on('data', (d) => {
  received += d;
});
socket.on('error', () => socket.destroy());
socket.on('close', () => parentPort.postMessage(received));
