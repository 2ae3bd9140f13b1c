import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { learningPlatformManifest, startLearningPlatform, type LearningPlatform } from './learning-platform';

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
    expect(body).toEqual(learningPlatformManifest);
  });

  it('uses relative tool URLs, header auth, and a list mapping', () => {
    expect(learningPlatformManifest.auth).toEqual({ type: 'header', name: 'Authorization', scheme: 'Bearer' });
    for (const tool of learningPlatformManifest.tools) expect(tool.url.startsWith('/api/')).toBe(true);
    const list = learningPlatformManifest.tools.find((tool) => tool.name === 'list_learner_courses');
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

  it('treats an encoded "../admin" as one path segment', async () => {
    const response = await get('/api/courses/..%2Fadmin');
    expect(response.status).toBe(404);
    expect(platform.log[0]?.path).toBe('/api/courses/..%2Fadmin');
  });
});
