// The baseline of `npm run bench`: bare Fastify (no plugins, no logger) answering a small JSON
// hello on GET /. Plain JavaScript, run with `node`, like the built Pasal server.
//   PORT=3100 node bench/bare-server.mjs
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST ?? '127.0.0.1';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

await app.listen({ port, host });
