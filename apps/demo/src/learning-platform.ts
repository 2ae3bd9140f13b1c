import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RcpManifest } from 'rcp-sdk/manifest';
import { bearerAuth, createRcpServer, defineTool, tokensEqual, type RcpServer, type ServerTool } from 'rcp-server';
import { toWebRequest, writeWebResponse } from 'rcp-server/node';

/**
 * The embedded RCP server: a tiny learning platform built on `rcp-server`. Its tools are
 * declared beside the handlers that serve them; rcp-server builds and serves the manifest,
 * checks the bearer token, validates every call with the client's own rules and refuses a
 * `learnerId` that is not the token's learner (a bound param, 403) before a handler runs.
 * Plain `node:http` on 127.0.0.1, data in memory, every request logged exactly as received (raw
 * path and query), with the bearer token checked but never logged.
 */

/** The verified caller behind a bearer token. */
interface Principal {
  readonly learnerId: string;
}

/** The learner the API's token belongs to (the demo's verified learner). */
const TOKEN_LEARNER: Principal = { learnerId: 'learner-42' };

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
  /** The tool whose handler ran (absent when rcp-server refused the call first, or for the manifest). */
  handledBy?: string;
}

/** A running embedded learning platform. */
export interface LearningPlatform {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The manifest it serves, built by rcp-server from the tool definitions. */
  manifest: RcpManifest;
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

/** The learner's id, bound to the token's learner: rcp-server refuses any other with 403. */
const learnerId = {
  name: 'learnerId',
  type: 'string',
  description: "The learner's id",
  bound: (principal: Principal) => principal.learnerId,
} as const;

const notFound = (error: string) => Response.json({ error }, { status: 404 });

/** The platform's tools, each beside its handler, over one instance's data. */
function learningPlatformTools(handled: (tool: string, request: Request) => void): ServerTool<Principal>[] {
  const courses = seedCourses();
  const learners = seedLearners();
  let nextEnrollment = 1001;
  return [
    defineTool<Principal>({
      name: 'get_learner_profile',
      description: "Fetches a learner's plan and progress by id.",
      method: 'GET',
      path: '/api/learners/{{learnerId}}/profile',
      params: [learnerId],
      responseMappings: { name: '@data.name', progress: '@data.progress.percent' },
      handler: ({ values, request }) => {
        handled('get_learner_profile', request);
        const learner = learners.get(values.learnerId as string);
        if (!learner) return notFound('no such learner');
        const { id, name, plan, progress } = learner;
        return { data: { id, name, plan, progress } };
      },
    }),
    defineTool<Principal>({
      name: 'search_courses',
      description: 'Searches the course catalog by free-text query.',
      method: 'GET',
      path: '/api/courses/search',
      queryParams: { q: '{{query}}' },
      params: [{ name: 'query', type: 'string', description: 'Free-text search term', required: true }],
      handler: ({ values, request }) => {
        handled('search_courses', request);
        const q = (values.query as string).trim().toLowerCase();
        const results = [...courses.values()]
          .filter((course) => q !== '' && course.title.toLowerCase().includes(q))
          .map(({ id, title, level }) => ({ id, title, level }));
        return { query: q, results };
      },
    }),
    defineTool<Principal>({
      name: 'enroll_in_course',
      description: 'Enrolls the current learner in a course.',
      method: 'POST',
      path: '/api/enrollments',
      body: { learnerId: '{{learnerId}}', courseId: '{{courseId}}', note: '{{note}}' },
      params: [
        { ...learnerId, required: true },
        { name: 'courseId', type: 'string', description: 'A course id from search_courses', required: true },
        { name: 'note', type: 'string', description: 'Optional note for the instructor' },
      ],
      responseMappings: { enrollmentId: '@data.id', course: '@data.course.title', status: '@data.status' },
      handler: ({ values, request }) => {
        handled('enroll_in_course', request);
        const learner = learners.get(values.learnerId as string);
        const course = courses.get(values.courseId as string);
        if (!learner) return Response.json({ error: 'unknown learner' }, { status: 422 });
        if (!course) return Response.json({ error: 'unknown course' }, { status: 422 });
        if (learner.enrolled.includes(course.id)) return Response.json({ error: 'already enrolled' }, { status: 409 });
        if (course.seatsLeft === 0) return Response.json({ error: 'course is full' }, { status: 409 });
        learner.enrolled.push(course.id);
        course.seatsLeft -= 1;
        const enrollment = {
          id: `enr-${nextEnrollment++}`,
          status: 'enrolled',
          learner: { id: learner.id },
          course: { id: course.id, title: course.title },
          ...(typeof values.note === 'string' ? { note: values.note } : {}),
        };
        return Response.json({ data: enrollment }, { status: 201 });
      },
    }),
    defineTool<Principal>({
      name: 'list_learner_courses',
      description: 'Lists the titles of the courses a learner is enrolled in.',
      method: 'GET',
      path: '/api/learners/{{learnerId}}/courses',
      params: [{ ...learnerId, required: true }],
      responseMappings: { titles: '@data.courses[*].title' },
      handler: ({ values, request }) => {
        handled('list_learner_courses', request);
        const learner = learners.get(values.learnerId as string);
        if (!learner) return notFound('no such learner');
        const enrolled = learner.enrolled.flatMap((courseId) => {
          const course = courses.get(courseId);
          return course ? [{ id: course.id, title: course.title }] : [];
        });
        return { data: { courses: enrolled } };
      },
    }),
    defineTool<Principal>({
      name: 'get_course',
      description: 'Fetches one course by its id.',
      method: 'GET',
      path: '/api/courses/{{courseId}}',
      params: [{ name: 'courseId', type: 'string', description: 'A course id from search_courses', required: true }],
      responseMappings: { title: '@data.title', level: '@data.level', seatsLeft: '@data.seatsLeft' },
      handler: ({ values, request }) => {
        handled('get_course', request);
        const course = courses.get(values.courseId as string);
        return course ? { data: course } : notFound('no such course');
      },
    }),
  ];
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
  const log: ServerLogEntry[] = [];
  const sockets = new Set<Socket>();
  const entries = new WeakMap<Request, ServerLogEntry>();
  const rcp: RcpServer = createRcpServer<Principal>({
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    verify: bearerAuth([{ token, principal: TOKEN_LEARNER }]),
    describedBy: false,
    maxBodyBytes: 64 * 1024,
    tools: learningPlatformTools((tool, request) => {
      const entry = entries.get(request);
      if (entry !== undefined) entry.handledBy = tool;
    }),
  });

  const server = createServer((req, res) => {
    const rawUrl = req.url ?? '/';
    const mark = rawUrl.indexOf('?');
    const header = req.headers.authorization;
    const entry: ServerLogEntry = {
      seq: log.length + 1,
      method: req.method ?? 'GET',
      path: mark === -1 ? rawUrl : rawUrl.slice(0, mark),
      query: mark === -1 ? '' : rawUrl.slice(mark + 1),
      authorization: redactAuthorization(header),
      authorized: header !== undefined && tokensEqual(header, `Bearer ${token}`),
      status: 0,
    };
    log.push(entry);
    void (async () => {
      const request = toWebRequest(req);
      if (request.body !== null) {
        const text = await request.clone().text();
        try {
          if (text !== '') entry.body = JSON.parse(text) as unknown;
        } catch {
          // Not JSON: rcp-server answers it (400); the log keeps no body.
        }
      }
      entries.set(request, entry);
      const response = (await rcp.handle(request)) ?? notFound('not found');
      entry.status = response.status;
      await writeWebResponse(response, res);
    })().catch(() => {
      entry.status = 500;
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
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
    manifest: rcp.manifest,
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
