import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseManifest } from 'rcp-sdk/manifest';
import { startLearningPlatform, type LearningPlatform } from './learning-platform';

/** The manifest the demo served when it was written by hand: rcp-server builds the same one. */
const HAND_WRITTEN_MANIFEST = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'get_learner_profile',
      description: "Fetches a learner's plan and progress by id.",
      method: 'GET',
      url: '/api/learners/{{learnerId}}/profile',
      params: [{ name: 'learnerId', type: 'string', description: "The learner's id", filledBy: 'client' }],
      responseMappings: { name: '@data.name', progress: '@data.progress.percent' },
    },
    {
      name: 'search_courses',
      description: 'Searches the course catalog by free-text query.',
      method: 'GET',
      url: '/api/courses/search',
      queryParams: { q: '{{query}}' },
      params: [{ name: 'query', type: 'string', description: 'Free-text search term', required: true }],
    },
    {
      name: 'enroll_in_course',
      description: 'Enrolls the current learner in a course.',
      method: 'POST',
      url: '/api/enrollments',
      body: { learnerId: '{{learnerId}}', courseId: '{{courseId}}', note: '{{note}}' },
      params: [
        { name: 'learnerId', type: 'string', description: "The learner's id", filledBy: 'client', required: true },
        { name: 'courseId', type: 'string', description: 'A course id from search_courses', required: true },
        { name: 'note', type: 'string', description: 'Optional note for the instructor' },
      ],
      responseMappings: { enrollmentId: '@data.id', course: '@data.course.title', status: '@data.status' },
    },
    {
      name: 'list_learner_courses',
      description: 'Lists the titles of the courses a learner is enrolled in.',
      method: 'GET',
      url: '/api/learners/{{learnerId}}/courses',
      params: [{ name: 'learnerId', type: 'string', description: "The learner's id", filledBy: 'client', required: true }],
      responseMappings: { titles: '@data.courses[*].title' },
    },
    {
      name: 'get_course',
      description: 'Fetches one course by its id.',
      method: 'GET',
      url: '/api/courses/{{courseId}}',
      params: [{ name: 'courseId', type: 'string', description: 'A course id from search_courses', required: true }],
      responseMappings: { title: '@data.title', level: '@data.level', seatsLeft: '@data.seatsLeft' },
    },
  ],
};

let platform: LearningPlatform;
beforeEach(async () => {
  platform = await startLearningPlatform({ token: 'test-token' });
});
afterEach(async () => platform.close());

const auth = { authorization: 'Bearer test-token' };

async function get(path: string, headers: Record<string, string> = auth) {
  const response = await fetch(platform.origin + path, { headers });
  return { status: response.status, body: (await response.json()) as any };
}

describe('startLearningPlatform', () => {
  it('listens on loopback and serves the manifest without a credential', async () => {
    expect(platform.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(platform.manifestUrl).toBe(`${platform.origin}/rcp/manifest`);
    const { status, body } = await get('/rcp/manifest', {});
    expect(status).toBe(200);
    expect(body).toEqual(platform.manifest);
    expect(body).toEqual(HAND_WRITTEN_MANIFEST);
    expect(parseManifest(body)).toEqual(platform.manifest);
  });

  it('uses relative tool URLs, header auth, and a list mapping', () => {
    expect(platform.manifest.auth).toEqual({ type: 'header', name: 'Authorization', scheme: 'Bearer' });
    for (const tool of platform.manifest.tools) expect(tool.url.startsWith('/api/')).toBe(true);
    const list = platform.manifest.tools.find((tool) => tool.name === 'list_learner_courses');
    expect(list?.responseMappings).toEqual({ titles: '@data.courses[*].title' });
  });

  it('refuses API calls without the bearer token, and logs them redacted', async () => {
    expect((await get('/api/learners/learner-42/profile', {})).status).toBe(401);
    expect((await get('/api/learners/learner-42/profile', { authorization: 'Bearer nope' })).status).toBe(401);
    expect(platform.log.map((entry) => [entry.authorization, entry.authorized, entry.status])).toEqual([
      ['(none)', false, 401],
      ['Bearer [redacted]', false, 401],
    ]);
    expect(JSON.stringify(platform.log)).not.toContain('nope');
  });

  it('answers the learner API and logs raw paths and queries', async () => {
    const search = await get('/api/courses/search?q=Algebra');
    expect(search.body.results.map((course: { id: string }) => course.id)).toEqual(['alg-101', 'alg-201', 'lin-301']);
    const profile = await get('/api/learners/learner-42/profile');
    expect(profile.body.data).toMatchObject({ name: 'Ada Lovelace', progress: { percent: 62 } });
    const courses = await get('/api/learners/learner-42/courses');
    expect(courses.body.data.courses).toEqual([{ id: 'geo-101', title: 'Geometry Foundations' }]);
    expect(platform.log.map(({ method, path, query, authorization, authorized }) => ({ method, path, query, authorization, authorized }))).toEqual([
      { method: 'GET', path: '/api/courses/search', query: 'q=Algebra', authorization: 'Bearer [redacted]', authorized: true },
      { method: 'GET', path: '/api/learners/learner-42/profile', query: '', authorization: 'Bearer [redacted]', authorized: true },
      { method: 'GET', path: '/api/learners/learner-42/courses', query: '', authorization: 'Bearer [redacted]', authorized: true },
    ]);
  });

  it('enrols once, keeps the enrolment in memory, and refuses a duplicate', async () => {
    const enrol = () =>
      fetch(`${platform.origin}/api/enrollments`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ learnerId: 'learner-42', courseId: 'alg-101', note: 'hi' }),
      });
    const first = await enrol();
    expect(first.status).toBe(201);
    expect(((await first.json()) as any).data).toMatchObject({ status: 'enrolled', course: { title: 'Algebra I: Equations and Inequalities' }, note: 'hi' });
    expect((await enrol()).status).toBe(409);
    const courses = await get('/api/learners/learner-42/courses');
    expect(courses.body.data.courses.map((course: { id: string }) => course.id)).toEqual(['geo-101', 'alg-101']);
    expect(platform.log[0]?.body).toEqual({ learnerId: 'learner-42', courseId: 'alg-101', note: 'hi' });
  });

  it('refuses a learnerId that is not the token’s learner with 403 (rcp-server’s bound param); no handler runs', async () => {
    const spoofed = await fetch(`${platform.origin}/api/learners/learner-7/profile`, { headers: auth });
    expect(spoofed.status).toBe(403);
    expect(spoofed.headers.get('content-type')).toBe('application/problem+json');
    const body = await fetch(`${platform.origin}/api/enrollments`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ learnerId: 'learner-7', courseId: 'alg-101' }),
    });
    expect(body.status).toBe(403);
    expect(platform.log.map((entry) => [entry.status, entry.handledBy])).toEqual([
      [403, undefined],
      [403, undefined],
    ]);
    const own = await get('/api/learners/learner-42/profile');
    expect(own.status).toBe(200);
    expect(platform.log[2]?.handledBy).toBe('get_learner_profile');
  });

  it('treats an encoded "../admin" as one path segment', async () => {
    const response = await get('/api/courses/..%2Fadmin');
    expect(response.status).toBe(404);
    expect(platform.log[0]?.path).toBe('/api/courses/..%2Fadmin');
  });
});
