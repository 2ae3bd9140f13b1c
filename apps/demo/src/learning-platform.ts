import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * The embedded RCP server: a tiny learning platform with an RCP manifest and the HTTP API its
 * tools point at. Plain `node:http` on 127.0.0.1, data in memory, every request logged exactly as
 * received (raw path and query), with the bearer token checked but never logged.
 */

/** The manifest served at `GET /rcp/manifest`. Tool URLs are relative: they resolve against it. */
export const learningPlatformManifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'get_learner_profile',
      description: "Fetches a learner's plan and progress by id.",
      method: 'GET',
      url: '/api/learners/{{learnerId}}/profile',
      params: [{ name: 'learnerId', type: 'string', description: "The learner's id" }],
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
        { name: 'learnerId', type: 'string', description: "The learner's id", required: true },
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
      params: [{ name: 'learnerId', type: 'string', description: "The learner's id", required: true }],
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
} as const;

/** One request exactly as the embedded server received it (credential redacted). */
export interface ServerLogEntry {
  /** 1-based arrival order. */
  seq: number;
  method: string;
  /** Raw path, still percent-encoded, exactly as it arrived on the wire. */
  path: string;
  /** Raw query string without `?` (`''` when there is none). */
  query: string;
  /** The Authorization header with its credential replaced: `Bearer [redacted]`, or `(none)`. */
  authorization: string;
  /** Whether the credential was the server's token. */
  authorized: boolean;
  /** Parsed JSON request body, when one was sent. */
  body?: unknown;
  /** Status code the server answered with. */
  status: number;
}

/** A running embedded learning platform. */
export interface LearningPlatform {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `origin + '/rcp/manifest'` */
  manifestUrl: string;
  /** The bearer token the API accepts (random per run; give it to the client, never print it). */
  token: string;
  /** Every request received so far, in arrival order. */
  readonly log: readonly ServerLogEntry[];
  close(): Promise<void>;
}

/** Options for {@link startLearningPlatform}. */
export interface LearningPlatformOptions {
  /**
   * The bearer token the API accepts.
   * @default a random 32-character hex string
   */
  token?: string;
  /**
   * The port on 127.0.0.1.
   * @default 0 (any free one)
   */
  port?: number;
}

interface Course {
  id: string;
  title: string;
  level: 'beginner' | 'intermediate' | 'advanced';
  seatsLeft: number;
}

interface Learner {
  id: string;
  name: string;
  plan: string;
  progress: { percent: number; completedLessons: number };
  enrolled: string[];
}

const MAX_BODY_BYTES = 64 * 1024;

function seedCourses(): Map<string, Course> {
  const courses: Course[] = [
    { id: 'alg-101', title: 'Algebra I: Equations and Inequalities', level: 'beginner', seatsLeft: 12 },
    { id: 'alg-201', title: 'Algebra II: Polynomials', level: 'intermediate', seatsLeft: 8 },
    { id: 'lin-301', title: 'Linear Algebra for Machine Learning', level: 'advanced', seatsLeft: 3 },
    { id: 'geo-101', title: 'Geometry Foundations', level: 'beginner', seatsLeft: 20 },
    { id: 'stat-110', title: 'Statistics with Python', level: 'intermediate', seatsLeft: 5 },
  ];
  return new Map(courses.map((course) => [course.id, course]));
}

function seedLearners(): Map<string, Learner> {
  const learners: Learner[] = [
    {
      id: 'learner-42',
      name: 'Ada Lovelace',
      plan: 'pro',
      progress: { percent: 62, completedLessons: 31 },
      enrolled: ['geo-101'],
    },
    {
      id: 'learner-7',
      name: 'Grace Hopper',
      plan: 'team',
      progress: { percent: 88, completedLessons: 44 },
      enrolled: ['stat-110', 'lin-301'],
    },
  ];
  return new Map(learners.map((learner) => [learner.id, learner]));
}

function redactAuthorization(value: string | undefined): string {
  if (value === undefined) return '(none)';
  const space = value.indexOf(' ');
  return space === -1 ? '[redacted]' : `${value.slice(0, space)} [redacted]`;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function decodeSegments(path: string): string[] | undefined {
  try {
    return path.split('/').slice(1).map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the embedded learning platform on 127.0.0.1 with an OS-assigned port.
 *
 * @example
 * ```ts
 * const platform = await startLearningPlatform();
 * const client = createRcpClient({ credentials: () => platform.token });
 * const { tools } = await client.discover(platform.manifestUrl);
 * await platform.close();
 * ```
 */
export async function startLearningPlatform(options: LearningPlatformOptions = {}): Promise<LearningPlatform> {
  const token = options.token ?? randomBytes(16).toString('hex');
  const courses = seedCourses();
  const learners = seedLearners();
  const log: ServerLogEntry[] = [];
  const sockets = new Set<Socket>();
  let nextEnrollment = 1001;

  const server = createServer(async (req, res) => {
    const rawUrl = req.url ?? '/';
    const mark = rawUrl.indexOf('?');
    const path = mark === -1 ? rawUrl : rawUrl.slice(0, mark);
    const query = mark === -1 ? '' : rawUrl.slice(mark + 1);
    const header = req.headers.authorization;
    const entry: ServerLogEntry = {
      seq: log.length + 1,
      method: req.method ?? 'GET',
      path,
      query,
      authorization: redactAuthorization(header),
      authorized: header !== undefined && sameSecret(header, `Bearer ${token}`),
      status: 0,
    };
    log.push(entry);

    const reply = (status: number, value: unknown): void => {
      entry.status = status;
      const text = JSON.stringify(value);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };

    const text = await readBody(req);
    if (text === undefined) return reply(413, { error: 'request body too large' });
    if (text !== '') {
      try {
        entry.body = JSON.parse(text);
      } catch {
        return reply(400, { error: 'request body is not JSON' });
      }
    }

    const segments = decodeSegments(path);
    if (segments === undefined) return reply(400, { error: 'malformed path' });

    if (entry.method === 'GET' && path === '/rcp/manifest') return reply(200, learningPlatformManifest);
    if (segments[0] !== 'api') return reply(404, { error: 'not found' });
    if (!entry.authorized) return reply(401, { error: 'missing or invalid bearer token' });

    const [, resource, id, sub, ...rest] = segments;
    if (rest.length > 0) return reply(404, { error: 'not found' });

    if (entry.method === 'GET' && resource === 'courses' && id === 'search' && sub === undefined) {
      const q = new URLSearchParams(query).get('q')?.trim().toLowerCase() ?? '';
      const results = [...courses.values()]
        .filter((course) => q !== '' && course.title.toLowerCase().includes(q))
        .map(({ id: courseId, title, level }) => ({ id: courseId, title, level }));
      return reply(200, { query: q, results });
    }

    if (entry.method === 'GET' && resource === 'courses' && id !== undefined && sub === undefined) {
      const course = courses.get(id);
      return course ? reply(200, { data: course }) : reply(404, { error: 'no such course' });
    }

    if (entry.method === 'GET' && resource === 'learners' && id !== undefined) {
      const learner = learners.get(id);
      if (!learner) return reply(404, { error: 'no such learner' });
      if (sub === 'profile') {
        const { name, plan, progress } = learner;
        return reply(200, { data: { id: learner.id, name, plan, progress } });
      }
      if (sub === 'courses') {
        const enrolled = learner.enrolled.flatMap((courseId) => {
          const course = courses.get(courseId);
          return course ? [{ id: course.id, title: course.title }] : [];
        });
        return reply(200, { data: { courses: enrolled } });
      }
      return reply(404, { error: 'not found' });
    }

    if (entry.method === 'POST' && resource === 'enrollments' && id === undefined) {
      const body = entry.body as { learnerId?: unknown; courseId?: unknown; note?: unknown } | undefined;
      const learner = typeof body?.learnerId === 'string' ? learners.get(body.learnerId) : undefined;
      const course = typeof body?.courseId === 'string' ? courses.get(body.courseId) : undefined;
      if (!learner) return reply(422, { error: 'unknown learner' });
      if (!course) return reply(422, { error: 'unknown course' });
      if (learner.enrolled.includes(course.id)) return reply(409, { error: 'already enrolled' });
      if (course.seatsLeft === 0) return reply(409, { error: 'course is full' });
      learner.enrolled.push(course.id);
      course.seatsLeft -= 1;
      const enrollment = {
        id: `enr-${nextEnrollment++}`,
        status: 'enrolled',
        learner: { id: learner.id },
        course: { id: course.id, title: course.title },
        ...(typeof body?.note === 'string' ? { note: body.note } : {}),
      };
      return reply(201, { data: enrollment });
    }

    return reply(404, { error: 'not found' });
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    manifestUrl: `${origin}/rcp/manifest`,
    token,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
