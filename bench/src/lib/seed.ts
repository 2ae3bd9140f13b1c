/**
 * The two seed tools (`/work/shared/seeds/rcp-manifest.txt`) and the JSON their upstream answers,
 * shared by every scenario so each contender does the same work.
 */

// The fixtures file itself, not rcp-test-utils' index: the bench bundles it (rcp-test-utils ships
// TypeScript source), and the index also holds the README helpers, which import the TypeScript
// compiler — bundled, that broke every bench process ("Dynamic require of fs") and would load
// the compiler into each measured process.
import { seedManifest as publishedSeedManifest } from '../../../test/test-utils/src/fixtures';

/** The seed manifest exactly as published (absolute example.com URLs; never fetched). */
export const seedManifestAbsolute = publishedSeedManifest;

/** The seed manifest with tool URLs relative to the manifest URL (so it can be served from 127.0.0.1). */
export const seedManifest: typeof publishedSeedManifest = JSON.parse(JSON.stringify(publishedSeedManifest).replaceAll('https://api.example.com', ''));

/** The upstream's answer to `GET /learners/:id/profile`. */
export function profileResponse(learnerId: string): unknown {
  return {
    data: {
      id: learnerId,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      plan: { id: 'pro-annual', name: 'Pro (annual)', renewsAt: '2026-09-01' },
      progress: { percent: 72, completedLessons: 36, totalLessons: 50, lastLessonId: 'ts-036' },
      enrolledCourses: ['ts-101', 'ts-201', 'node-110'],
    },
  };
}

/** The upstream's answer to `GET /courses/search?q=`. */
export function searchResponse(query: string): unknown {
  const titles = ['Intro to TypeScript', 'Node.js Streams', 'HTTP for API Authors', 'Testing with Vitest', 'JSON Schema'];
  return {
    query,
    total: titles.length,
    results: titles.map((title, i) => ({
      id: `c-${100 + i}`,
      title,
      level: i % 2 === 0 ? 'beginner' : 'intermediate',
      durationMinutes: 45 + i * 15,
      rating: 4.1 + i / 10,
    })),
  };
}

/** Learner ids the resolver hands out (call i uses id i mod length); ids have no reserved characters. */
export const learnerIds = Array.from({ length: 16 }, (_, i) => `L-${1000 + i}`);

/** Free-text queries (with spaces and `&` so encoding is exercised). */
export const queries = ['intro to typescript', 'node & streams', 'json schema', 'http caching', 'vitest'];

/** The UTCP manual for the same two endpoints (served by the upstream at `/utcp`). */
export function utcpManual(origin: string): unknown {
  return {
    utcp_version: '1.0.1',
    manual_version: '1.0.0',
    tools: [
      {
        name: 'get_learner_profile',
        description: "Fetches a learner's plan and progress by id.",
        inputs: {
          type: 'object',
          properties: { learnerId: { type: 'string', description: "The learner's id" } },
          required: ['learnerId'],
        },
        tool_call_template: {
          call_template_type: 'http',
          http_method: 'GET',
          url: `${origin}/learners/{learnerId}/profile`,
        },
      },
      {
        name: 'search_courses',
        description: 'Searches the course catalog by free-text query.',
        inputs: {
          type: 'object',
          properties: { q: { type: 'string', description: 'Free-text search term' } },
          required: ['q'],
        },
        tool_call_template: {
          call_template_type: 'http',
          http_method: 'GET',
          url: `${origin}/courses/search`,
        },
      },
    ],
  };
}
