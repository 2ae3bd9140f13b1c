/**
 * Manifest fixtures. `seedManifest` is the manifest from the protocol seed
 * (`shared/seeds/rcp-manifest.txt`) verbatim; `seedManifestAt(origin)` is the same
 * manifest with its tool URLs pointed at a local test server.
 */
export const seedManifest = {
  rcpVersion: '0.1',
  auth: { type: 'none' },
  tools: [
    {
      name: 'get_learner_profile',
      description: "Fetches a learner's plan and progress by id.",
      method: 'GET',
      url: 'https://api.example.com/learners/{{learnerId}}/profile',
      params: [{ name: 'learnerId', type: 'string', description: "The learner's id" }],
      responseMappings: { name: '@data.name', progress: '@data.progress.percent' },
    },
    {
      name: 'search_courses',
      description: 'Searches the course catalog by free-text query.',
      method: 'GET',
      url: 'https://api.example.com/courses/search',
      queryParams: { q: '{{query}}' },
      params: [{ name: 'query', type: 'string', description: 'Free-text search term', required: true }],
    },
  ],
} as const;

/** The resolvers seed's `get_profile` manifest (header auth, one resolver-bound param). */
export const resolverSeedManifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'get_profile',
      description: "Get the current user's profile.",
      method: 'GET',
      url: '/users/{{userId}}',
      params: [{ name: 'userId', type: 'string', description: "the user's id", required: true }],
    },
  ],
} as const;

/** Deep clone of a fixture, so a test can mutate it. */
export function cloneFixture<T>(value: T): T {
  return structuredClone(value) as T;
}

/** The seed manifest with `https://api.example.com` replaced by `origin`. */
export function seedManifestAt(origin: string): typeof seedManifest {
  return JSON.parse(JSON.stringify(seedManifest).replaceAll('https://api.example.com', origin));
}
