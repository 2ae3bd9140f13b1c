import { GoogleGenAI, type Content } from '@google/genai';
import { createRcpClient } from 'rcp-client';
import { createGeminiTools } from 'rcp-gemini';

const client = createRcpClient({
  resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, // the signed-in user: never the model's choice
  credentials: () => process.env.NOTES_TOKEN,
});
const rcp = createGeminiTools(client, await client.discover(process.env.NOTES_MANIFEST_URL!));
const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY });
const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is on my groceries note?' }] }];
for (let step = 0; step < 8; step++) {
  const response = await ai.models.generateContent({
    model: 'gemini-3.8-flash',
    contents,
    config: { tools: [{ functionDeclarations: rcp.functionDeclarations }] },
  });
  if (!response.functionCalls?.length) {
    console.log(response.text);
    break;
  }
  contents.push(response.candidates![0]!.content!, { role: 'user', parts: await rcp.runFunctionCalls(response.functionCalls, { userId: 'u-1' }) });
}
