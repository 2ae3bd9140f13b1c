import type { RcpToolSet } from 'rcp-client';
import type { RcpToolRanker } from 'rcp-search';

/** An OpenAI-compatible embeddings API: `POST {baseUrl}/embeddings` with `{ model, input }`. */
export interface EmbeddingsApi {
  /** Up to and including the version: `https://api.openai.com/v1`, or your provider's or local server's. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Told when the API fails; that search then keeps the lexical order. */
  readonly onError?: (error: unknown) => void;
}

/** Reciprocal-rank fusion: a tool's score is the sum of 1 / (FUSION_K + its rank) over the two rankings. */
const FUSION_K = 60;
/** The closest tools by meaning that join the lexical candidates. */
const SEMANTIC_CANDIDATES = 50;
/** Texts per embeddings request, well under providers' limits. */
const BATCH = 256;

/**
 * A `rank` hook for `createToolSearch` that fuses the lexical candidates with the tools closest in meaning to the
 * query. Each tool set's vectors are requested on its first search and kept in this ranker (a WeakMap keyed by the
 * tool set: a new tool set gets its own, a dropped one is collected); the query is embedded on every search.
 */
export function embeddingRanker(api: EmbeddingsApi): RcpToolRanker {
  const toolVectors = new WeakMap<RcpToolSet, Promise<Float32Array[]>>();
  const vectorsOf = (toolSet: RcpToolSet): Promise<Float32Array[]> => {
    let vectors = toolVectors.get(toolSet);
    if (vectors === undefined) {
      const texts = toolSet.entries.map(({ name, tool }) => `${name}: ${tool.description}`);
      const requested = embedInBatches(api, texts);
      // A failure is not kept: the next search asks again.
      requested.catch(() => {
        if (toolVectors.get(toolSet) === requested) toolVectors.delete(toolSet);
      });
      toolVectors.set(toolSet, requested);
      vectors = requested;
    }
    return vectors;
  };

  return async (query, candidates, { toolSet }) => {
    const lexical = candidates.map((hit) => hit.name);
    try {
      const [tools, [asked]] = await Promise.all([vectorsOf(toolSet), embed(api, [query])]);
      if (asked!.length !== tools[0]?.length) throw new Error('the query and the tools were embedded in different sizes');
      const closest = toolSet.entries
        .map(({ name }, index) => ({ name, similarity: dot(tools[index]!, asked!) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, SEMANTIC_CANDIDATES)
        .map(({ name }) => name);
      const fused = new Map<string, number>();
      for (const ranking of [lexical, closest]) {
        ranking.forEach((name, rank) => fused.set(name, (fused.get(name) ?? 0) + 1 / (FUSION_K + rank + 1)));
      }
      return [...fused].sort((a, b) => b[1] - a[1]).map(([name]) => name);
    } catch (error) {
      api.onError?.(error);
      return lexical;
    }
  };
}

async function embedInBatches(api: EmbeddingsApi, texts: readonly string[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += BATCH) vectors.push(...(await embed(api, texts.slice(start, start + BATCH))));
  return vectors;
}

/** One request: a unit vector per text, in the texts' order. */
async function embed(api: EmbeddingsApi, input: readonly string[]): Promise<Float32Array[]> {
  const response = await fetch(`${api.baseUrl.replace(/\/+$/, '')}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(api.apiKey === undefined ? {} : { authorization: `Bearer ${api.apiKey}` }) },
    body: JSON.stringify({ model: api.model, input }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`the embeddings API answered ${response.status}`);
  const { data } = (await response.json()) as { data?: { index?: unknown; embedding?: unknown }[] };
  const vectors: Float32Array[] = [];
  for (const item of Array.isArray(data) ? data : []) {
    if (typeof item.index === 'number' && Array.isArray(item.embedding)) vectors[item.index] = unit(item.embedding.map(Number));
  }
  const dimensions = vectors[0]?.length;
  if (vectors.length !== input.length || input.some((_text, i) => vectors[i]?.length !== dimensions)) {
    throw new Error(`the embeddings API did not answer one vector of one size for each of the ${input.length} texts`);
  }
  return vectors;
}

function unit(vector: readonly number[]): Float32Array {
  const length = Math.hypot(...vector) || 1;
  return Float32Array.from(vector, (value) => value / length);
}

/** The cosine similarity of two unit vectors. */
function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
