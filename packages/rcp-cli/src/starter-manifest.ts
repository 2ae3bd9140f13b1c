/**
 * The manifest `rcp init` writes: the learner example, which lints clean once its `learnerId` is
 * resolved (`rcp lint rcp-manifest.json --resolve learnerId`).
 *
 * @example
 * ```ts
 * await writeFile('rcp-manifest.json', `${JSON.stringify(starterManifest, null, 2)}\n`);
 * ```
 */
export const starterManifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'get_learner_profile',
      description: "Fetches the signed-in learner's plan and progress.",
      method: 'GET',
      url: '/learners/{{learnerId}}/profile',
      params: [{ name: 'learnerId', type: 'string', required: true, description: "The learner's id (bind a resolver to it)" }],
      responseMappings: { name: '@data.name', progress: '@data.progress.percent' },
    },
    {
      name: 'search_courses',
      description: 'Searches the course catalog by free-text query.',
      method: 'GET',
      url: '/courses/search',
      queryParams: { q: '{{query}}', limit: '{{limit}}' },
      params: [
        { name: 'query', type: 'string', required: true, description: 'Free-text search term' },
        { name: 'limit', type: 'integer', description: 'At most this many results' },
      ],
    },
  ],
} as const;
