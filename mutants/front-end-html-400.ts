import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/**
 * A front end that refuses a URL it cannot decode in its own words: an HTML page with its own
 * Server header, before the API sees the request (nginx does so for a NUL byte in the path).
 */
export default defineMutant({
  description: 'answers a request with a NUL byte or a broken percent-encoding in its URL with an HTML 400 from "nginx"',
  breaks: { 'GEN-3': 'warn' },
  modify: (reference) => {
    beforeReference(reference, (req) => {
      const url = req.url ?? '';
      if (!/%00|%(?![0-9A-Fa-f]{2})/.test(url)) return;
      // Served here, before the API: the request goes no further.
      req.url = '/__front_end_refusal__';
      req.headers['x-front-end-refusal'] = '1';
    });
    reference.app.get('/__front_end_refusal__', async (_req, reply) =>
      reply
        .code(400)
        .header('server', 'nginx/1.22.1')
        .type('text/html')
        .send(
          '<html><head><title>400 Bad Request</title></head><body><center><h1>400 Bad Request</h1></center><hr><center>nginx/1.22.1</center></body></html>',
        ),
    );
  },
});
