// A stand-in RCP server for the example, on 127.0.0.1 with an OS-assigned port. It serves
// its manifest at /rcp/manifest and records every request it receives.
import { createServer } from 'node:http';

const COURSES = [
  { id: 'alg-1', title: 'Algebra I' },
  { id: 'alg-2', title: 'Linear Algebra' },
  { id: 'geo-1', title: 'Geometry' },
];

export async function startLearnServer() {
  const requests = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url, 'http://127.0.0.1');
    requests.push(`${req.method} ${req.url}`);
    const send = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.headers.authorization !== 'Bearer demo-token' && url.pathname !== '/rcp/manifest') {
      return send(401, { error: 'unauthorized' });
    }
    if (req.method === 'GET' && url.pathname === '/rcp/manifest') return send(200, manifest);
    if (req.method === 'GET' && url.pathname === '/courses/search') {
      const query = (url.searchParams.get('q') ?? '').toLowerCase();
      return send(200, { results: COURSES.filter((course) => course.title.toLowerCase().includes(query)) });
    }
    const enroll = /^\/learners\/([^/]+)\/enrollments$/.exec(url.pathname);
    if (req.method === 'POST' && enroll) {
      return send(201, { learnerId: decodeURIComponent(enroll[1]), courseId: JSON.parse(body).courseId, status: 'enrolled' });
    }
    send(404, { error: 'not found' });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const manifest = {
    rcpVersion: '0.1',
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    tools: [
      {
        name: 'search_courses',
        description: 'Searches the course catalog by free-text query.',
        method: 'GET',
        url: '/courses/search',
        queryParams: { q: '{{query}}' },
        params: [{ name: 'query', required: true, description: 'Free-text search term' }],
      },
      {
        name: 'enroll',
        description: 'Enrolls the current learner in a course.',
        method: 'POST',
        url: '/learners/{{learnerId}}/enrollments',
        body: { courseId: '{{courseId}}' },
        params: [
          { name: 'learnerId', description: "The learner's id" },
          { name: 'courseId', required: true, description: 'The course to enroll in' },
        ],
      },
    ],
  };
  return {
    manifestUrl: `${origin}/rcp/manifest`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
