// The baseline of `npm run bench`: bare Fastify (no plugins, no logger) answering a small JSON
// hello on GET /. Plain JavaScript, run with `node`, like the built Pasal server.
//   PORT=3100 node bench/bare-server.mjs
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST ?? '127.0.0.1';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

// The same server answering JSON text of a given size, as Pasal's cached reads send theirs (a
// string with a JSON content type, no serialiser): what the answer's size alone costs the
// server, the kernel and the load generator, beside the hello above.
const texts = new Map();
app.get('/sized/:bytes', async (request, reply) => {
  const bytes = Math.min(Math.max(Number(request.params.bytes) || 0, 16), 1_000_000);
  let text = texts.get(bytes);
  if (text === undefined) {
    text = `{"data":"${'x'.repeat(bytes - 11)}"}`;
    texts.set(bytes, text);
  }
  reply.type('application/json; charset=utf-8');
  return reply.send(text);
});

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

await app.listen({ port, host });
