import { RcpError } from 'rcp-errors';
import type { ModelRawAnswer, ModelScriptStep, ModelTurn, ScriptedToolCall } from './types';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(where: string, message: string): RcpError<'RCP_INVALID_OPTIONS'> {
  return new RcpError('RCP_INVALID_OPTIONS', `${where}: ${message}`);
}

/** Whether a step is a raw answer (it has a `body`). */
export function isRawAnswer(step: ModelTurn | ModelRawAnswer): step is ModelRawAnswer {
  return 'body' in step;
}

function checkToolCall(call: unknown, where: string): void {
  if (!isRecord(call)) throw invalid(where, 'a tool call must be an object { name, arguments?, id? }');
  if (typeof call.name !== 'string' || call.name === '') throw invalid(where, '"name" must be a non-empty string');
  if (call.arguments !== undefined && typeof call.arguments !== 'string' && !isRecord(call.arguments)) {
    throw invalid(where, '"arguments" must be an object or a string');
  }
  if (call.id !== undefined && (typeof call.id !== 'string' || call.id === '')) throw invalid(where, '"id" must be a non-empty string');
}

/**
 * Checks one answer of a script (a turn or a raw answer); a function is checked when it has answered.
 * Throws `RCP_INVALID_OPTIONS` naming the step.
 */
export function checkStep(step: unknown, where: string): asserts step is ModelScriptStep {
  if (typeof step === 'function') return;
  if (!isRecord(step)) throw invalid(where, 'an answer must be a turn { text?, toolCalls? }, a raw answer { status?, body } or a function');
  if ('body' in step) {
    const status = step.status;
    if (status !== undefined && (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)) {
      throw invalid(where, '"status" must be an HTTP status from 200 to 599');
    }
    return;
  }
  const unknownKey = Object.keys(step).find((key) => key !== 'text' && key !== 'toolCalls');
  if (unknownKey !== undefined) throw invalid(where, `"${unknownKey}" is not a key of a turn (text, toolCalls)`);
  if (step.text !== undefined && typeof step.text !== 'string') throw invalid(where, '"text" must be a string');
  if (step.toolCalls !== undefined) {
    if (!Array.isArray(step.toolCalls) || step.toolCalls.length === 0) throw invalid(where, '"toolCalls" must be a non-empty list');
    step.toolCalls.forEach((call: unknown, index) => checkToolCall(call, `${where}, tool call ${index}`));
  }
  if (step.text === undefined && step.toolCalls === undefined) throw invalid(where, 'a turn needs "text", "toolCalls" or both');
}

/** A tool call's arguments as the JSON text an OpenAI API sends. */
export function argumentsText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
}

/** Splits text into pieces of at most `size` characters, as a stream delivers it (one empty piece for ''). */
export function pieces(text: string, size: number): string[] {
  if (text === '') return [''];
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}
