import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * Sends a request's head announcing a body of `length` bytes, and only its first kilobyte: resolves
 * with the first line of an answer that came anyway, or undefined after `waitMs` without one.
 */
export async function answerBeforeBody(
  url: string,
  path: string,
  headers: Record<string, string>,
  length: number,
  waitMs = 1500,
): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    'content-type: application/json',
    `content-length: ${length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n{"model":"gpt-4o","messages":[${' '.repeat(1000)}`);
  const answer = new Promise<string>((resolve) =>
    socket.once('data', (data: Buffer) => resolve(data.toString('latin1').split('\r\n')[0]!)),
  );
  const late = new Promise<undefined>((resolve) => setTimeout(resolve, waitMs, undefined));
  try {
    return await Promise.race([answer, late]);
  } finally {
    socket.destroy();
  }
}
